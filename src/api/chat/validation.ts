// Checks on a chat request before it is sent (spec 2.1 and 8); video requests have their own rules in videoRules.ts.
import * as l10n from '@vscode/l10n';
import { GatewayError } from '../transport/errors';
import type { ChatMessage, ChatRequest, ContentPart, ImagePart, TextPart } from './wire';

/** Spec section 8 and 2.1 limits. */
export const CHAT_LIMITS = {
  temperature: [0, 2],
  top_p: [0, 1],
  presence_penalty: [-2, 2],
  frequency_penalty: [-2, 2],
  maxStop: 4,
} as const;

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function fail(fieldName: string, message: string): never {
  throw new GatewayError('validation', message, { field: fieldName });
}

function checkRange(req: ChatRequest, key: 'temperature' | 'top_p' | 'presence_penalty' | 'frequency_penalty'): void {
  const v = req[key];
  if (v === undefined || v === null) return;
  const [lo, hi] = CHAT_LIMITS[key];
  if (typeof v !== 'number' || !Number.isFinite(v))
    fail(key, l10n.t('{0} must be a number between {1} and {2}.', key, lo, hi));
  if (v < lo || v > hi) fail(key, l10n.t('{0} must be between {1} and {2}; it is {3}.', key, lo, hi, v));
}

function checkImageUrl(url: unknown, where: string): void {
  if (typeof url !== 'string' || url.trim() === '') fail(where, l10n.t('{0} must be an image URL.', where));
  if (url.startsWith('data:')) {
    if (!/^data:image\/[A-Za-z0-9.+-]+;base64,[A-Za-z0-9+/=\s]+$/.test(url)) {
      fail(
        where,
        l10n.t('{0} is a data URL but not a complete base64 image (data:image/<type>;base64,<data>).', where),
      );
    }
    return;
  }
  if (!/^https?:\/\/[^\s]+$/i.test(url)) fail(where, l10n.t('{0} must be an http(s) URL or a base64 data URL.', where));
}

function checkContent(m: ChatMessage, i: number): void {
  const where = `messages[${i}].content`;
  const c: unknown = m.content;
  if (typeof c === 'string') return;
  if (c === null || c === undefined) {
    if (m.role === 'assistant' && m.tool_calls && m.tool_calls.length > 0) return;
    fail(where, l10n.t('{0} is missing; only an assistant message with tool_calls may have no content.', where));
  }
  if (!Array.isArray(c)) fail(where, l10n.t('{0} must be a string or an array of parts.', where));
  if (m.role === 'tool' || m.role === 'assistant')
    fail(where, l10n.t('{0} must be a string for a {1} message.', where, m.role));
  c.forEach((p: unknown, j) => {
    const pw = `${where}[${j}]`;
    if (typeof p !== 'object' || p === null) fail(pw, l10n.t('{0} must be an object with a type.', pw));
    const part = p as Partial<ContentPart> & { type?: unknown };
    if (part.type === 'text') {
      if (typeof (part as TextPart).text !== 'string')
        fail(`${pw}.text`, l10n.t('{0} must be a string.', `${pw}.text`));
    } else if (part.type === 'image_url') {
      if (m.role !== 'user') fail(pw, l10n.t('{0}: image parts are allowed in user messages only.', pw));
      checkImageUrl((part as ImagePart).image_url?.url, `${pw}.image_url.url`);
    } else {
      fail(`${pw}.type`, l10n.t('{0} must be "text" or "image_url".', `${pw}.type`));
    }
  });
}

/**
 * Checks every range and limit of spec sections 2.1 and 8 before anything is sent, throwing a
 * `GatewayError('validation')` whose `field` names the offending field. Returns advisory
 * warnings (for example temperature and top_p both set, which the spec advises against).
 */
export function validateChatRequest(req: ChatRequest): { warnings: string[] } {
  if (typeof req !== 'object' || req === null) fail('request', l10n.t('The chat request must be an object.'));
  if (typeof req.model !== 'string' || req.model.trim() === '') {
    fail('model', l10n.t('model is required: choose a chat model (Select Chat Model) or type its ID in the settings.'));
  }
  if (/\s/.test(req.model)) fail('model', l10n.t('model "{0}" contains whitespace; model IDs do not.', req.model));
  if (!Array.isArray(req.messages) || req.messages.length === 0)
    fail('messages', l10n.t('messages must contain at least one message.'));
  const warnings = checkParams(req);
  const toolNames = checkTools(req);
  checkToolChoice(req, toolNames);
  checkMessages(req.messages);
  return { warnings };
}

/** The sampling and output fields; returns the advisory warnings. */
function checkParams(req: ChatRequest): string[] {
  const warnings: string[] = [];
  checkRange(req, 'temperature');
  checkRange(req, 'top_p');
  checkRange(req, 'presence_penalty');
  checkRange(req, 'frequency_penalty');
  if (req.temperature !== undefined && req.top_p !== undefined) {
    warnings.push(l10n.t('temperature and top_p are both set; the gateway recommends setting only one of them.'));
  }
  if (req.max_tokens !== undefined && req.max_tokens !== null) {
    if (!Number.isInteger(req.max_tokens) || req.max_tokens < 1) {
      fail('max_tokens', l10n.t('max_tokens must be a whole number of at least 1; it is {0}.', String(req.max_tokens)));
    }
  }
  if (req.stop !== undefined && req.stop !== null) {
    const stops = typeof req.stop === 'string' ? [req.stop] : req.stop;
    if (!Array.isArray(stops)) fail('stop', l10n.t('stop must be a string or an array of strings.'));
    if (stops.length > CHAT_LIMITS.maxStop)
      fail('stop', l10n.t('stop allows at most {0} sequences; {1} were given.', CHAT_LIMITS.maxStop, stops.length));
    stops.forEach((s, i) => {
      if (typeof s !== 'string' || s === '') fail(`stop[${i}]`, l10n.t('stop[{0}] must be a non-empty string.', i));
    });
  }
  if (req.response_format !== undefined) {
    const t = (req.response_format as { type?: unknown }).type;
    if (t !== 'text' && t !== 'json_object' && t !== 'json_schema') {
      fail('response_format.type', l10n.t('response_format.type must be "text", "json_object" or "json_schema".'));
    }
  }
  if (req.user !== undefined && typeof req.user !== 'string') fail('user', l10n.t('user must be a string.'));
  return warnings;
}

/** The tool definitions; returns their names. */
function checkTools(req: ChatRequest): Set<string> {
  const toolNames = new Set<string>();
  if (req.tools !== undefined) {
    if (!Array.isArray(req.tools)) fail('tools', l10n.t('tools must be an array.'));
    req.tools.forEach((t, i) => {
      const w = `tools[${i}]`;
      if (t?.type !== 'function') fail(`${w}.type`, l10n.t('{0}.type must be "function".', w));
      const name = t.function?.name;
      if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
        fail(`${w}.function.name`, l10n.t('{0}.function.name must be 1-64 letters, digits, _ or -.', w));
      }
      if (toolNames.has(name))
        fail(`${w}.function.name`, l10n.t('{0}.function.name: tool "{1}" is defined twice.', w, name));
      toolNames.add(name);
      const params = t.function.parameters;
      if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
        fail(`${w}.function.parameters`, l10n.t('{0}.function.parameters must be a JSON Schema object.', w));
      }
    });
  }
  return toolNames;
}

/** `tool_choice`, against the tools defined. */
function checkToolChoice(req: ChatRequest, toolNames: ReadonlySet<string>): void {
  if (req.tool_choice !== undefined) {
    const tc = req.tool_choice;
    if (typeof tc === 'string') {
      if (tc !== 'auto' && tc !== 'none' && tc !== 'required')
        fail('tool_choice', l10n.t('tool_choice must be "auto", "none", "required" or a tool object.'));
    } else if (tc?.type !== 'function' || typeof tc.function?.name !== 'string') {
      fail(
        'tool_choice',
        l10n.t('tool_choice must be "auto", "none", "required" or { type: "function", function: { name } }.'),
      );
    } else if (!toolNames.has(tc.function.name)) {
      fail(
        'tool_choice.function.name',
        l10n.t('tool_choice.function.name is "{0}", which is not in tools.', tc.function.name),
      );
    }
    if (tc !== 'none' && tc !== 'auto' && toolNames.size === 0)
      fail('tool_choice', l10n.t('tool_choice asks for a tool but no tools are defined.'));
  }
}

/** Each message, and every tool answer against a call an earlier assistant message made. */
function checkMessages(messages: ChatRequest['messages']): void {
  const openCalls = new Set<string>();
  messages.forEach((m, i) => {
    if (typeof m !== 'object' || m === null || !ROLES.has((m as { role?: string }).role ?? '')) {
      fail(`messages[${i}].role`, l10n.t('messages[{0}].role must be system, user, assistant or tool.', i));
    }
    checkContent(m, i);
    if (m.name !== undefined && typeof m.name !== 'string')
      fail(`messages[${i}].name`, l10n.t('messages[{0}].name must be a string.', i));
    if (m.role === 'assistant' && m.tool_calls) {
      m.tool_calls.forEach((c, j) => {
        const w = `messages[${i}].tool_calls[${j}]`;
        if (typeof c.id !== 'string' || c.id === '') fail(`${w}.id`, l10n.t('{0}.id is missing.', w));
        if (typeof c.function?.name !== 'string' || c.function.name === '')
          fail(`${w}.function.name`, l10n.t('{0}.function.name is missing.', w));
        if (typeof c.function.arguments !== 'string')
          fail(`${w}.function.arguments`, l10n.t('{0}.function.arguments must be a JSON string.', w));
        openCalls.add(c.id);
      });
    }
    if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string' || m.tool_call_id === '') {
        fail(`messages[${i}].tool_call_id`, l10n.t('messages[{0}] is a tool message without tool_call_id.', i));
      }
      if (!openCalls.has(m.tool_call_id)) {
        fail(
          `messages[${i}].tool_call_id`,
          l10n.t(
            'messages[{0}] answers tool call "{1}", which no earlier assistant message made (or which was already answered).',
            i,
            m.tool_call_id,
          ),
        );
      }
      openCalls.delete(m.tool_call_id);
    }
  });
}
