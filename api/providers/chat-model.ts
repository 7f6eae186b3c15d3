import { z } from 'zod';
import { botUserAgent, createProviderTransport, notConfigured, providerJson, type ProviderResult, type ProviderTransport } from './http.ts';

/**
 * A language model behind an OpenAI-compatible chat completions API (OpenAI, Azure's compatible endpoint,
 * vLLM, Ollama, llama.cpp's server and most hosted models speak it), for writing bid drafts.
 *
 * Wire format (the OpenAI API reference, "Create chat completion"):
 *   POST {base}/chat/completions   Authorization: Bearer <key>   {"model": "...", "messages": [{"role", "content"}]}
 *   200 {"choices": [{"index": 0, "message": {"role": "assistant", "content": "..."}, "finish_reason": "stop"}], ...}
 * `base` is the API root including its version, e.g. `https://api.openai.com/v1`.
 */

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface ChatModel {
  /** The model's name as configured; null when none is. */
  readonly model: string | null;
  /** The model's reply to `messages`; `not_configured` when no model is set up on this server. */
  complete(messages: ChatMessage[]): Promise<ProviderResult<string>>;
}

const ChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

export const LLM_URL_ENV = 'SVC_LLM_URL';
/** A completion takes far longer than a look-up: its own time limit, in seconds. */
const DEFAULT_TIMEOUT_SECONDS = 60;

export interface ChatModelOptions {
  /** The API root, e.g. `https://api.openai.com/v1`; completions are posted to `<baseUrl>/chat/completions`. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token; local servers often need none. */
  apiKey?: string | undefined;
  transport: ProviderTransport;
}

export function createChatModel(options: ChatModelOptions): ChatModel {
  const endpoint = new URL(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`);
  return {
    model: options.model,
    async complete(messages) {
      const answered = await providerJson(options.transport, endpoint, ChatCompletion, {
        body: JSON.stringify({ model: options.model, messages }),
        headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      });
      if (!answered.ok) return answered;
      if (answered.value === null) return { ok: false, reason: 'refused', detail: `${endpoint.host} has no chat completions endpoint at ${endpoint.pathname} (HTTP 404); check ${LLM_URL_ENV}.` };
      const content = answered.value.choices[0]!.message.content?.trim();
      if (!content) return { ok: false, reason: 'unreachable', detail: `${endpoint.host} answered with an empty message.` };
      return { ok: true, value: content };
    },
  };
}

/** The model of a server with none configured: every call says so, and nothing is sent anywhere. */
export const unconfiguredChatModel: ChatModel = {
  model: null,
  complete: async () => notConfigured('A language model', LLM_URL_ENV),
};

/**
 * The model `SVC_LLM_URL`, `SVC_LLM_MODEL` and `SVC_LLM_KEY` name (`SVC_LLM_TIMEOUT_SECONDS` per call,
 * default 60); unconfigured when `SVC_LLM_URL` is unset. A URL without a model, or a malformed one, stops
 * start-up rather than the first draft.
 */
export function chatModelFromEnv(env: Readonly<Record<string, string | undefined>>, options: { fetch?: typeof fetch } = {}): ChatModel {
  const baseUrl = env[LLM_URL_ENV];
  if (!baseUrl) return unconfiguredChatModel;
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) throw new Error(`${LLM_URL_ENV} must be an http or https URL such as https://api.openai.com/v1, got ${baseUrl}`);
  const model = env['SVC_LLM_MODEL'];
  if (!model) throw new Error(`${LLM_URL_ENV} is set, so SVC_LLM_MODEL must name the model to ask, such as gpt-4o-mini`);
  const timeoutSeconds = Number(env['SVC_LLM_TIMEOUT_SECONDS'] || DEFAULT_TIMEOUT_SECONDS);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new Error(`SVC_LLM_TIMEOUT_SECONDS must be a positive number, got ${env['SVC_LLM_TIMEOUT_SECONDS']}`);
  const transport = createProviderTransport({
    userAgent: botUserAgent(env['SVC_CONTACT_URL']),
    timeoutMs: timeoutSeconds * 1000,
    minIntervalMs: 0,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return createChatModel({ baseUrl, model, apiKey: env['SVC_LLM_KEY'], transport });
}
