// One vscode.lm answer (src/lm/answer/core/answer.ts) against the local gateway: streamed or not as the
// setting says, and toolMode Required, whose "required" a gateway may refuse.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import type { ChatStreamEvent, ChatRequest, ChatResult } from '../../../../../src/api/chat/wire';
import {
  answerLmRequest,
  RequiredChoiceRefusals,
  type LmAnswerOptions,
} from '../../../../../src/lm/answer/core/answer';
import { useGateway, gatewayFailure } from '../../../../support/helpers';
import { buildLmRequest } from '../../../../../src/lm/messages/core/messages';
import { LIST_DIR, READ_FILE, requiredRequest as requiredRequestFor, userTurn } from '../../../../support/lmFixtures';

void describe('streamed or not', () => {
  const gw = useGateway();

  const READ_FILE = [
    {
      type: 'function' as const,
      function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
    },
  ];

  async function answer(stream: boolean, content: string, tools?: typeof READ_FILE) {
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
    const texts: string[] = [];
    const result = await answerLmRequest(
      client,
      { model: 'gw-chat', messages: [{ role: 'user', content }], ...(tools ? { tools } : {}) },
      {
        stream,
        onEvent: (e: ChatStreamEvent) => {
          if (e.type === 'text') texts.push(e.text);
        },
      },
    );
    const sent = gw
      .requests()
      .filter((r) => r.route === '/v1/chat/completions')
      .map((r) => (r.body as { stream?: unknown }).stream);
    return { result, texts, sent };
  }

  void describe('one vscode.lm answer, streamed or not', () => {
    void it('with streaming off, one non-streaming request and its whole text reported once', async () => {
      const { result, texts, sent } = await answer(false, 'no stream please');
      assert.deepEqual(sent, [false]);
      assert.deepEqual(texts, ['Echo: no stream please']);
      assert.equal(result.message.content, 'Echo: no stream please');
    });

    void it('with streaming on, a streamed request and the text in several pieces', async () => {
      const { texts, sent } = await answer(true, 'stream it in pieces please');
      assert.deepEqual(sent, [true]);
      assert.ok(texts.length >= 2, `pieces: ${texts.length}`);
      assert.equal(texts.join(''), 'Echo: stream it in pieces please');
    });

    void it('with streaming off, tool calls come back in the result', async () => {
      const { result } = await answer(
        false,
        '#tools [{"calls":[{"name":"read_file","arguments":{"path":"x.md"}}]}]',
        READ_FILE,
      );
      assert.deepEqual(
        result.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments) as unknown]),
        [['read_file', { path: 'x.md' }]],
      );
    });
  });
});

// toolMode Required through vscode.lm. Spec 2.1 lists tool_choice as auto, none
// or a specific tool object: one offered tool is named; with several, "required" goes out and a
// gateway's 400/422 naming tool_choice is answered by one more request with "auto". Real HTTP
// against the local gateway (its rejectRequiredToolChoice knob plays the strict upstream).
void describe('toolMode Required', () => {
  const gw = useGateway();

  /** The request the provider builds for toolMode Required (2) with these tools. */
  function requiredRequest(text: string, tools: (typeof READ_FILE)[]): ChatRequest {
    return buildLmRequest([userTurn(text)], { modelId: 'gw-chat', acceptsImages: false, tools, toolMode: 2 }).request;
  }

  interface Sent {
    tool_choice?: unknown;
    stream?: boolean;
    stream_options?: unknown;
  }

  async function answer(
    request: ChatRequest,
    stream: boolean,
  ): Promise<{ result: ChatResult; logs: string[]; sent: Sent[] }> {
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
    const logs: string[] = [];
    const result = await answerLmRequest(client, request, {
      stream,
      onEvent: (_e: ChatStreamEvent) => undefined,
      log: (m) => logs.push(m),
    });
    return { result, logs, ...sentSoFar() };
  }

  /** The chat request bodies the gateway received since the last reset. */
  function sentSoFar(): { sent: Sent[] } {
    return {
      sent: gw
        .requests()
        .filter((r) => r.route === '/v1/chat/completions')
        .map((r) => r.body as Sent),
    };
  }

  const callNames = (r: ChatResult) => (r.message.tool_calls ?? []).map((c) => c.function.name);

  void describe('toolMode Required through vscode.lm', () => {
    void it('with one tool offered, the tool is named (spec 2.1) and called, even where "required" would be refused', async () => {
      gw.fault({ rejectRequiredToolChoice: 400, times: -1 });
      const request = requiredRequest('please look at the readme', [READ_FILE]);
      assert.deepEqual(request.tool_choice, { type: 'function', function: { name: 'read_file' } });
      for (const stream of [false, true]) {
        gw.resetCounts();
        const { result, sent, logs } = await answer(request, stream);
        assert.deepEqual(
          sent.map((b) => b.tool_choice),
          [{ type: 'function', function: { name: 'read_file' } }],
          `one request (stream ${stream})`,
        );
        assert.deepEqual(callNames(result), ['read_file']);
        assert.deepEqual(logs, []);
      }
    });

    void it('with several tools and a gateway that accepts it, "required" goes out once and a tool is called', async () => {
      const { result, sent, logs } = await answer(requiredRequest('do something', [READ_FILE, LIST_DIR]), false);
      assert.deepEqual(
        sent.map((b) => b.tool_choice),
        ['required'],
      );
      assert.deepEqual(callNames(result), ['read_file'], 'the gateway calls the first tool under "required"');
      assert.deepEqual(logs, []);
    });

    void it('with several tools, a 400 naming tool_choice is answered by one request with "auto", and it is logged', async () => {
      gw.fault({ rejectRequiredToolChoice: 400, times: -1 });
      const script = '#tools [{"calls":[{"name":"list_directory","arguments":{"path":"src"}}]}]';
      const { result, sent, logs } = await answer(requiredRequest(script, [READ_FILE, LIST_DIR]), false);
      assert.deepEqual(
        sent.map((b) => b.tool_choice),
        ['required', 'auto'],
      );
      assert.deepEqual(callNames(result), ['list_directory'], "the auto answer still carries the model's call");
      assert.equal(logs.length, 1);
      assert.match(
        logs[0]!,
        /gw-chat: the gateway refused tool_choice "required" \(400: .*tool_choice.*\); sent once more with "auto"/,
      );
    });

    void it('streamed, a 422 naming tool_choice also falls back to "auto" once, and the answer streams', async () => {
      gw.fault({ rejectRequiredToolChoice: 422, times: -1 });
      const { result, sent, logs } = await answer(requiredRequest('just talk', [READ_FILE, LIST_DIR]), true);
      const choices = sent.map((b) => b.tool_choice);
      // The refusal names tool_choice, so the client does not also try it without stream_options;
      // the provider's fallback is the single "auto" request.
      assert.deepEqual(choices, ['required', 'auto']);
      assert.equal(sent.at(-1)?.stream, true);
      assert.deepEqual(
        sent.at(-1)?.stream_options,
        { include_usage: true },
        'the refusal was not blamed on stream_options',
      );
      assert.equal(result.message.content, 'Echo: just talk');
      assert.equal(logs.length, 1);
    });

    void it('a 400 about another field is not retried, and neither is a refused tool object', async () => {
      gw.fault({
        status: 400,
        times: -1,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'invalid_value',
            message: 'temperature is out of range',
            param: 'temperature',
          },
        },
      });
      const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
      const logs: string[] = [];
      const o = { stream: false, onEvent: () => undefined, log: (m: string) => logs.push(m) };
      const other = await gatewayFailure(answerLmRequest(client, requiredRequest('x', [READ_FILE, LIST_DIR]), o));
      assert.equal(other.status, 400);
      assert.equal(other.param, 'temperature');
      assert.deepEqual(
        sentSoFar().sent.map((b) => b.tool_choice),
        ['required'],
        'sent once',
      );

      gw.clearFaults();
      gw.resetCounts();
      gw.fault({
        status: 400,
        times: -1,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'invalid_value',
            message: 'tool_choice objects are not supported',
            param: 'tool_choice',
          },
        },
      });
      const forced = await gatewayFailure(answerLmRequest(client, requiredRequest('x', [READ_FILE]), o));
      assert.equal(forced.param, 'tool_choice');
      assert.equal(sentSoFar().sent.length, 1, 'only "required" is ever replaced by "auto"');
      assert.deepEqual(logs, []);
    });
  });
});

// A refused tool_choice "required" is remembered per client and model.
void describe('refusals of "required"', () => {
  const gw = useGateway();
  const requiredRequest = requiredRequestFor;

  function newClient(baseUrl = gw.url): GatewayClient {
    return new GatewayClient({ baseUrl, apiKey: gw.keys.valid, maxRetries: 0 });
  }

  /** The tool_choice of every chat request the gateway received since the last reset. */
  function sentChoices(): unknown[] {
    return gw
      .requests()
      .filter((r) => r.route === '/v1/chat/completions')
      .map((r) => (r.body as { tool_choice?: unknown }).tool_choice);
  }

  const callNames = (r: ChatResult) => (r.message.tool_calls ?? []).map((c) => c.function.name);

  void describe('a refused tool_choice "required" is remembered', () => {
    void it('later Required requests to that model through the same client go out with "auto" at once, and the refusal is logged once', async () => {
      gw.fault({ rejectRequiredToolChoice: 400, times: -1 });
      const client = newClient();
      const logs: string[] = [];
      const o: LmAnswerOptions = {
        stream: false,
        onEvent: () => undefined,
        log: (m) => logs.push(m),
        refusals: new RequiredChoiceRefusals(),
      };
      for (const stream of [false, true, false]) {
        const result = await answerLmRequest(client, requiredRequest('gw-chat'), { ...o, stream });
        assert.deepEqual(
          callNames(result),
          ['list_directory'],
          `the "auto" answer carries the call (stream ${stream})`,
        );
      }
      assert.deepEqual(
        sentChoices(),
        ['required', 'auto', 'auto', 'auto'],
        'one refused request, then "auto" straight away',
      );
      assert.equal(logs.length, 1, `logged once: ${JSON.stringify(logs)}`);
      assert.match(
        logs[0]!,
        /gw-chat: the gateway refused tool_choice "required" \(400: .*\); sent once more with "auto"; later requests to this model on this gateway use "auto" at once/,
      );
    });

    void it('without a memory every Required request pays for its own refusal (what the provider did before)', async () => {
      gw.fault({ rejectRequiredToolChoice: 422, times: -1 });
      const client = newClient();
      const logs: string[] = [];
      for (let i = 0; i < 2; i++)
        await answerLmRequest(client, requiredRequest('gw-chat'), {
          stream: false,
          onEvent: () => undefined,
          log: (m) => logs.push(m),
        });
      assert.deepEqual(sentChoices(), ['required', 'auto', 'required', 'auto']);
      assert.equal(logs.length, 2);
    });

    void it('another model on the same gateway, or a new client (another base URL or key), tries "required" once more', async () => {
      gw.fault({ rejectRequiredToolChoice: 400, times: -1 });
      const refusals = new RequiredChoiceRefusals();
      const o: LmAnswerOptions = { stream: false, onEvent: () => undefined, refusals };
      const first = newClient();
      await answerLmRequest(first, requiredRequest('gw-chat'), o);
      assert.ok(refusals.has(first, 'gw-chat'));
      assert.ok(!refusals.has(first, 'gw-vision'), 'a refusal behind one model says nothing about another upstream');
      await answerLmRequest(first, requiredRequest('gw-vision'), o);
      const second = newClient();
      await answerLmRequest(second, requiredRequest('gw-chat'), o);
      await answerLmRequest(second, requiredRequest('gw-chat'), o);
      assert.deepEqual(sentChoices(), ['required', 'auto', 'required', 'auto', 'required', 'auto', 'auto']);
    });

    void it('a gateway that accepts "required", or refuses another field, is not remembered as refusing it', async () => {
      const refusals = new RequiredChoiceRefusals();
      const client = newClient();
      const o: LmAnswerOptions = { stream: false, onEvent: () => undefined, refusals };
      await answerLmRequest(client, requiredRequest('gw-chat', 'do something'), o);
      gw.fault({
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'invalid_value',
            message: 'temperature is out of range',
            param: 'temperature',
          },
        },
      });
      const other = await gatewayFailure(answerLmRequest(client, requiredRequest('gw-chat', 'do something'), o));
      assert.equal(other.param, 'temperature');
      const last = await answerLmRequest(client, requiredRequest('gw-chat', 'do something'), o);
      assert.deepEqual(callNames(last), ['read_file'], 'the gateway calls the first tool under "required"');
      assert.deepEqual(sentChoices(), ['required', 'required', 'required']);
      assert.ok(!refusals.has(client, 'gw-chat'));
    });
  });
});
