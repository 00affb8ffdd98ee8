// Review: the reasoning the vscode.lm provider remembers must go back with its own tool call only.
// Relays that number calls per answer give the first call of every conversation the id call_0, so
// a memory keyed by id alone sent one conversation's reasoning back in another.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LM_ROLE, ReasoningMemory, toGatewayMessages, type LmMessageLike } from '../../src/lm/core/messages';

/** Same fields as VS Code's LanguageModelToolCallPart / ToolResultPart / TextPart. */
class ToolCallPart {
  constructor(public callId: string, public name: string, public input: object) {}
}
class ToolResultPart {
  constructor(public callId: string, public content: unknown[]) {}
}
class TextPart {
  constructor(public value: string) {}
}
const user = (...content: unknown[]): LmMessageLike => ({ role: LM_ROLE.user, content });
const assistant = (...content: unknown[]): LmMessageLike => ({ role: LM_ROLE.assistant, content });

function reasoningSent(history: LmMessageLike[], memory: ReasoningMemory): string | undefined {
  // What the provider passes: the memory is asked with the call as VS Code sent it back.
  const out = toGatewayMessages(history, { acceptsImages: false, reasoningFor: (_id, call) => memory.get(call) });
  const a = out.messages.find((m) => m.role === 'assistant') as { reasoning_content?: string } | undefined;
  return a?.reasoning_content;
}

void describe('review: remembered reasoning across conversations', () => {
  void test('two conversations whose first tool calls are both call_0 each get their own reasoning back', () => {
    const memory = new ReasoningMemory();
    // The provider remembers the parts it reported, in answer order: conversation A, then B.
    const callA = new ToolCallPart('call_0', 'read_file', { path: 'a.md' });
    const callB = new ToolCallPart('call_0', 'list_dir', { path: 'src' });
    memory.remember([callA], 'A: I should read a.md');
    memory.remember([callB], 'B: I should list src');

    const historyA = [user(new TextPart('read a.md')), assistant(new ToolCallPart('call_0', 'read_file', { path: 'a.md' })), user(new ToolResultPart('call_0', [new TextPart('# A')]))];
    const historyB = [user(new TextPart('list src')), assistant(new ToolCallPart('call_0', 'list_dir', { path: 'src' })), user(new ToolResultPart('call_0', [new TextPart('x.ts')]))];
    assert.equal(reasoningSent(historyA, memory), 'A: I should read a.md', "conversation A's tool turn carries A's reasoning, not B's");
    assert.equal(reasoningSent(historyB, memory), 'B: I should list src');
  });

  void test('a call with the same id but other arguments gets no remembered reasoning', () => {
    const memory = new ReasoningMemory();
    memory.remember([new ToolCallPart('call_0', 'read_file', { path: 'a.md' })], 'about a.md');
    const other = [user(new TextPart('q')), assistant(new ToolCallPart('call_0', 'read_file', { path: 'b.md' })), user(new ToolResultPart('call_0', [new TextPart('b')]))];
    assert.equal(reasoningSent(other, memory), undefined);
  });

  void test('remembering by id alone still works for callers that have only the id', () => {
    const memory = new ReasoningMemory();
    memory.remember(['c9'], 'by id');
    assert.equal(memory.get('c9'), 'by id');
    assert.equal(memory.get(new ToolCallPart('c9', 'f', {})), undefined, 'a call-keyed lookup does not match an id-only entry');
  });
});
