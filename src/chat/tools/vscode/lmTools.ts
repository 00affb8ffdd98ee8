import * as vscode from 'vscode';
import { nameExternalTools } from '../core/externalToolNames';
import { ToolError, type Tool } from '../core/runner';

/** Prefix of the tools this extension registers in `vscode.lm.tools`. */
const OWN_PREFIX = 'gatewayStudio_';

/** A tool of another extension or an MCP server, as offered to the model. */
export interface ExternalTool extends Tool {
  /** The name in `vscode.lm.tools` (may differ from the wire name). */
  lmName: string;
  trustKey: string;
}

/**
 * Wraps the tools other extensions and MCP servers registered in VS Code (`vscode.lm.tools`) so
 * the model can call them through `vscode.lm.invokeTool`. Nothing is known about what they do, so
 * they are treated as changing tools: always asked unless the user trusts one explicitly.
 * `taken` holds the built-in names, which an external tool may not shadow.
 */
export function externalTools(taken: ReadonlySet<string>): ExternalTool[] {
  // This extension's own tools (the video tools) are already in the set under their chat names.
  const infos = vscode.lm.tools.filter((info) => !info.name.startsWith(OWN_PREFIX));
  const names = nameExternalTools(infos, taken);
  const out: ExternalTool[] = [];
  for (const [i, info] of infos.entries()) {
    const { wireName: name, trustKey } = names[i]!;
    const parameters = isObject(info.inputSchema)
      ? (info.inputSchema as Record<string, unknown>)
      : { type: 'object', properties: {} };
    out.push({
      lmName: info.name,
      trustKey,
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

function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
