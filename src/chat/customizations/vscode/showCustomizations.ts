// "Gateway Studio: Show Customizations": every customization source in one Quick Pick, grouped by
// kind, each with whether it applies now (and why), is available, or is off (and why), and its
// problems with their lines; choosing one opens its file at the first problem. A Quick Pick, not a
// page: it costs no webview, filters as the user types, and opens the file in one step.
import * as vscode from 'vscode';
import type {
  CustomizationKind,
  CustomizationSource,
  CustomizationSourceProvider,
} from '../../../contracts/customizations';
import { firstProblemLine, groupCustomizations, type ProviderResult } from '../core/customizationList';

interface SourceItem extends vscode.QuickPickItem {
  readonly source?: CustomizationSource;
}

/** Lists what every provider reports and opens the source the user picks. */
export async function showCustomizations(providers: readonly CustomizationSourceProvider[]): Promise<void> {
  const pick = vscode.window.createQuickPick<SourceItem>();
  pick.title = vscode.l10n.t('Customizations');
  pick.placeholder = vscode.l10n.t('Rules, instructions and other customization files: what applies now, and why');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.busy = true;
  pick.show();
  const results = await Promise.all(
    providers.map(async (p): Promise<ProviderResult> => {
      try {
        return { kind: p.kind, sources: await p.list() };
      } catch (e) {
        return { kind: p.kind, error: e instanceof Error ? e.message : String(e) };
      }
    }),
  );
  pick.items = customizationItems(results);
  pick.busy = false;
  const chosen = await new Promise<SourceItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
  });
  pick.dispose();
  if (chosen?.source) await openSource(chosen.source);
}

/** The Quick Pick's rows: a separator per kind, a row per source, a row per failed reader. */
export function customizationItems(results: readonly ProviderResult[]): SourceItem[] {
  const groups = groupCustomizations(results);
  if (groups.length === 0)
    return [
      {
        label: vscode.l10n.t('No customization files found'),
        detail: vscode.l10n.t(
          'Looked for AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, .github/instructions/*.instructions.md, .claude/rules and .gatewaystudio/rules in the workspace folders, and your own ~/.claude, ~/.copilot/instructions and VS Code prompts folder.',
        ),
      },
    ];
  const items: SourceItem[] = [];
  for (const g of groups) {
    items.push({ label: kindLabel(g.kind), kind: vscode.QuickPickItemKind.Separator });
    for (const s of g.sources) items.push(sourceItem(s));
    for (const e of g.errors)
      items.push({ label: `$(error) ${vscode.l10n.t('Could not be listed')}`, detail: e, alwaysShow: true });
  }
  return items;
}

function sourceItem(s: CustomizationSource): SourceItem {
  const icon = s.state === 'applies' ? '$(check)' : s.state === 'available' ? '$(circle-outline)' : '$(circle-slash)';
  const state =
    s.state === 'applies'
      ? vscode.l10n.t('applies now')
      : s.state === 'available'
        ? vscode.l10n.t('available')
        : vscode.l10n.t('off');
  const where = s.scope === 'user' ? vscode.l10n.t('yours') : vscode.l10n.t('workspace');
  const detail = [
    s.why,
    ...s.problems.map((p) => (p.line !== undefined ? vscode.l10n.t('line {0}: {1}', p.line, p.message) : p.message)),
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    label: `${icon} ${s.name}`,
    description: `${state} · ${where}${s.path && s.path !== s.name ? ` · ${s.path}` : ''}`,
    ...(detail ? { detail } : {}),
    source: s,
  };
}

function kindLabel(kind: CustomizationKind): string {
  switch (kind) {
    case 'instructions':
      return vscode.l10n.t('Rules and instructions');
    case 'promptFile':
      return vscode.l10n.t('Prompt files');
    case 'skill':
      return vscode.l10n.t('Skills');
    case 'agent':
      return vscode.l10n.t('Agents');
    case 'hooks':
      return vscode.l10n.t('Hooks');
    case 'commandRules':
      return vscode.l10n.t('Command rules');
    case 'mcpServer':
      return vscode.l10n.t('MCP servers');
  }
}

/** Opens the source's file at its first problem's line, when it is a file. */
async function openSource(s: CustomizationSource): Promise<void> {
  const uri = vscode.Uri.file(s.path);
  const stat = await vscode.workspace.fs.stat(uri).then(
    (st) => st,
    () => undefined,
  );
  if (!stat || (stat.type & vscode.FileType.File) === 0) return;
  const line = firstProblemLine(s);
  const at = line !== undefined ? new vscode.Position(line - 1, 0) : undefined;
  await vscode.window.showTextDocument(uri, { preview: true, ...(at ? { selection: new vscode.Range(at, at) } : {}) });
}
