import modelJson from './model.json' with { type: 'json' };
import { ModelFile, type AiTextModel } from './model.ts';

/** The fitted model shipped with the checker (written by scripts/fit-ai-text-model.ts), checked once at load. */
export const AI_TEXT_MODEL: AiTextModel = ModelFile.parse(modelJson);
