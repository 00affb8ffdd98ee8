import * as vscode from 'vscode';
import { ToolError, type Tool } from '../core/toolRunner';

/** Wire names the gateway accepts for a function (the OpenAI rule). */
const WIRE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Prefix of the tools this extension registers in `vscode.lm.tools`. */
const OWN_PREFIX = 'gatewayStudio_';

/** A tool of another extension or an MCP server, as offered to the model. */
export interface ExternalTool extends Tool {
  /** The name in `vscode.lm.tools` (may differ from the wire name). */
  lmName: string;
}

/**
 * Wraps the tools other extensions and MCP servers registered in VS Code (`vscode.lm.tools`) so
 * the model can call them through `vscode.lm.invokeTool`. Nothing is known about what they do, so
 * they are treated as changing tools: always asked unless the user trusts one explicitly.
 * `taken` holds the built-in names, which an external tool may not shadow.
 */
export function externalTools(taken: ReadonlySet<string>): ExternalTool[] {
  const used = new Set(taken);
  const out: ExternalTool[] = [];
  for (const info of vscode.lm.tools) {
    // This extension's own tools (the video tools) are already in the set under their chat names.
    if (info.name.startsWith(OWN_PREFIX)) continue;
    const name = wireName(info.name, used);
    used.add(name);
    const parameters = isObject(info.inputSchema)
      ? (info.inputSchema as Record<string, unknown>)
      : { type: 'object', properties: {} };
    out.push({
      lmName: info.name,
      readOnly: false,
      definition: { type: 'function', function: { name, description: info.description.slice(0, 1024), parameters } },
      prepare(args) {
        return Promise.resolve({
          summary: vscode.l10n.t('Tool "{0}" from another extension or an MCP server', info.name),
          run: async (ctx) => {
            const cts = new vscode.CancellationTokenSource();
            const onAbort = () => cts.cancel();
            ctx.signal.addEventListener('abort', onAbort, { once: true });
            try {
              const result = await vscode.lm.invokeTool(
                info.name,
                { input: args, toolInvocationToken: undefined },
                cts.token,
              );
              const text = result.content
                .map((p) =>
                  p instanceof vscode.LanguageModelTextPart
                    ? p.value
                    : p instanceof vscode.LanguageModelPromptTsxPart
                      ? JSON.stringify(p.value)
                      : '[a non-text part was left out]',
                )
                .join('\n');
              return { content: text === '' ? '(the tool returned nothing)' : text };
            } catch (e) {
              if (ctx.signal.aborted) throw e;
              throw new ToolError(`The tool "${info.name}" failed: ${e instanceof Error ? e.message : String(e)}`);
            } finally {
              ctx.signal.removeEventListener('abort', onAbort);
              cts.dispose();
            }
          },
        });
      },
    });
  }
  return out;
}

/** A unique wire name: the tool's own when valid and free, else a cleaned, prefixed one. */
export function wireName(lmName: string, used: ReadonlySet<string>): string {
  if (WIRE_NAME.test(lmName) && !used.has(lmName)) return lmName;
  const base = `ext_${lmName.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 60);
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
  return name;
}

function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
