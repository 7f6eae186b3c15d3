// The two shapes every route's OpenAPI declaration repeats: a JSON body of a schema, and an error reply.
import { ErrorSchema } from './tender.ts';

/** An OpenAPI `content` of one JSON schema. */
export const json = <T>(schema: T) => ({ 'application/json': { schema } });

/** An OpenAPI reply described by a sentence, whose body is the one error shape `{ detail }`. */
export const errorReply = (description: string) => ({ description, content: json(ErrorSchema) });
