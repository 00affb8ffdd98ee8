/**
 * The tool probe's fixed data: the schema of its two tools and its five cases with the calls each
 * asks for. Data only (no imports at run time), so the local gateway's check-up models answer
 * the same cases (test/gateway/checkup.ts).
 */
import type { ToolDefinition } from '../../../api/chat/wire';

export type ToolCaseId = 'one' | 'parallel' | 'nested' | 'none' | 'result';

export type Schema =
  | { type: 'object'; properties: Record<string, Schema>; required: string[] }
  | { type: 'string' }
  | { type: 'array'; items: Schema };

const str: Schema = { type: 'string' };
export const WEATHER: Schema = { type: 'object', properties: { city: str }, required: ['city'] };
export const EVENT: Schema = {
  type: 'object',
  properties: {
    title: str,
    when: { type: 'object', properties: { date: str, time: str }, required: ['date', 'time'] },
    attendees: {
      type: 'array',
      items: { type: 'object', properties: { name: str, email: str }, required: ['name', 'email'] },
    },
  },
  required: ['title', 'when', 'attendees'],
};

export const CHECKUP_TOOLS: ToolDefinition[] = [
  {
    type: 'function',
    function: { name: 'get_weather', description: 'The current weather in a city.', parameters: WEATHER },
  },
  { type: 'function', function: { name: 'create_event', description: 'Creates a calendar event.', parameters: EVENT } },
];

export interface ExpectedCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface ToolCase {
  id: ToolCaseId;
  /** The user's words (the result case's are the first case's, then its call and result). */
  prompt: string;
  expect: ExpectedCall[];
}

export const WEATHER_RESULT = '{"city":"Paris","celsius":18,"sky":"sunny"}';

export const TOOL_CASES: readonly ToolCase[] = [
  {
    id: 'one',
    prompt: 'Use the get_weather tool to get the weather in Paris. Call it once.',
    expect: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  {
    id: 'parallel',
    prompt: 'Use the get_weather tool for Paris and for Tokyo: make both calls at once, in parallel.',
    expect: [
      { name: 'get_weather', arguments: { city: 'Paris' } },
      { name: 'get_weather', arguments: { city: 'Tokyo' } },
    ],
  },
  {
    id: 'nested',
    prompt:
      'Use the create_event tool: title "Relay review", on 2026-12-01 at 10:00, attendees Ana (ana@example.com) and Bo (bo@example.com).',
    expect: [
      {
        name: 'create_event',
        arguments: {
          title: 'Relay review',
          when: { date: '2026-12-01', time: '10:00' },
          attendees: [
            { name: 'Ana', email: 'ana@example.com' },
            { name: 'Bo', email: 'bo@example.com' },
          ],
        },
      },
    ],
  },
  { id: 'none', prompt: 'Say hello in one short sentence. Do not call any tool.', expect: [] },
  { id: 'result', prompt: 'Use the get_weather tool to get the weather in Paris. Call it once.', expect: [] },
];
