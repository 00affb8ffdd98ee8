import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { checkInside } from '../../../files/insideWorkspace';
import { FeatureToolError } from '../../../contracts/featureTools';
import type { VideoFeature } from '../../base/vscode/feature';
import { applyEdit, newShotId, parseBoard, printBoard, type Board } from '../core/board';
import {
  addShotInput,
  boardFromInput,
  boardPathProblem,
  createInput,
  generateInput,
  parseInput,
  toShot,
} from '../core/agentInput';
import type { ApprovedUnit } from '../core/approved';
import { allUnits, runSummary } from '../core/plan';
import { totalLine } from '../../base/core/price';
import { quoteMedia, type MediaQuote } from '../../../platform/mediaSpend';
import type { Services } from '../../../platform/services';
import { fallback, sessions } from './editor';
import { freezeUnits } from './approvedRun';
import { workspaceRoots } from './files';
import { Keyframes } from './keyframes';

const VIEW_TYPE = 'gatewayStudio.storyboard';

/** A tool's board path as a file inside the workspace (links followed), or a FeatureToolError saying why not. */
async function boardUri(rel: string): Promise<vscode.Uri> {
  const why = boardPathProblem(rel);
  if (why) throw new FeatureToolError(vscode.l10n.t('"{0}": {1}.', rel, why));
  const root = workspaceRoots()[0];
  if (!root) throw new FeatureToolError(vscode.l10n.t('No folder is open: a board lives in a workspace folder.'));
  const abs = path.resolve(root, rel);
  const c = await checkInside(abs, workspaceRoots());
  if (!c.inside) throw new FeatureToolError(vscode.l10n.t('"{0}" leads out of the workspace.', rel));
  return vscode.Uri.file(abs);
}

async function readBoard(uri: vscode.Uri): Promise<{ doc: vscode.TextDocument; board: Board }> {
  const doc = await vscode.workspace.openTextDocument(uri).then(
    (d) => d,
    () => {
      throw new FeatureToolError(vscode.l10n.t('There is no board at {0}.', vscode.workspace.asRelativePath(uri)));
    },
  );
  const r = parseBoard(doc.getText());
  if (!r.ok) throw new FeatureToolError(vscode.l10n.t('The board does not parse ({0}); nothing was changed.', r.error));
  return { doc, board: r.board };
}

function input<T>(schema: Parameters<typeof parseInput<T>>[0], raw: unknown): T {
  const r = parseInput(schema, raw);
  if (!r.ok) throw new FeatureToolError(r.error);
  return r.value;
}

/** Creates a board from the shots the model wrote; an existing file is never replaced. */
export async function prepareCreate(raw: unknown): Promise<{ summary: string; run: () => Promise<string> }> {
  const i = input(createInput, raw);
  const uri = await boardUri(i.path);
  const board = boardFromInput(i);
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
  if (exists) throw new FeatureToolError(vscode.l10n.t('{0} exists already; add shots to it instead.', i.path));
  return {
    summary: vscode.l10n.t(
      'Create the board {0} ("{1}") with {2} shot(s). Nothing is generated yet.',
      i.path,
      i.title,
      board.shots.length,
    ),
    run: async () => {
      // Asked again at run time: the approval may have waited while a file or a link appeared.
      const now = await boardUri(i.path);
      if (
        await vscode.workspace.fs.stat(now).then(
          () => true,
          () => false,
        )
      )
        throw new FeatureToolError(vscode.l10n.t('{0} exists already; add shots to it instead.', i.path));
      await vscode.workspace.fs.writeFile(uri, Buffer.from(printBoard(board)));
      await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
      return vscode.l10n.t(
        'Created {0} with shots {1}. Nothing was generated: call the generate storyboard tool to start (the user approves it).',
        i.path,
        board.shots.map((s) => s.id).join(', '),
      );
    },
  };
}

export async function prepareAddShot(raw: unknown): Promise<{ summary: string; run: () => Promise<string> }> {
  const i = input(addShotInput, raw);
  const uri = await boardUri(i.path);
  const { board } = await readBoard(uri);
  const id = newShotId(board);
  return {
    summary: vscode.l10n.t('Add shot "{0}" to {1}: {2}', id, i.path, i.shot.prompt.slice(0, 200)),
    run: async () => {
      await boardUri(i.path);
      const { doc, board: now } = await readBoard(uri);
      const { id: _id, ...shot } = toShot(i.shot, id);
      const next = applyEdit(now, { kind: 'add', ...(i.after ? { after: i.after } : {}), shot });
      const we = new vscode.WorkspaceEdit();
      we.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), printBoard(next));
      if (!(await vscode.workspace.applyEdit(we)))
        throw new FeatureToolError(vscode.l10n.t('The board could not be edited.'));
      await doc.save();
      return vscode.l10n.t(
        'Added shot "{0}" to {1}.',
        next.shots.find((s) => !now.shots.some((o) => o.id === s.id))?.id ?? id,
        i.path,
      );
    },
  };
}

/**
 * The keyframes a run makes first, each priced as one image of its model. One without a model is
 * made with the user's last image model, which only the images feature knows: its price is
 * unknown, so the agents' allowance cannot cover it and the user is asked.
 */
function keyframeQuotes(s: Services, board: Board, shotIds: ReadonlySet<string>): Promise<MediaQuote[]> {
  const unknown = vscode.l10n.t('Price unknown: the account feature is off or not loaded yet.');
  return Promise.all(
    Keyframes.toMake(board, shotIds).map(({ keyframe }) =>
      keyframe.model
        ? quoteMedia(s, { kind: 'image', model: keyframe.model, images: 1 }, unknown)
        : Promise.resolve<MediaQuote>({
            known: false,
            line: vscode.l10n.t('Price unknown: a keyframe without a model is made with your last image model.'),
          }),
    ),
  );
}

/**
 * What a generation will send, for the approval: shots, clips, seconds, models, the keyframe images
 * made first, and the price of all of them (`quotes`: the clips', then the keyframes').
 */
export async function prepareGenerate(
  s: Services,
  feature: VideoFeature,
  raw: unknown,
): Promise<{
  summary: string;
  key: string;
  approved: ApprovedUnit[];
  quotes: MediaQuote[];
  /** What the quotes are, for our own question: `2 clip(s)`, with the keyframe images when there are any. */
  what: string;
  run: () => Promise<string>;
}> {
  const i = input(generateInput, raw);
  const uri = await boardUri(i.path);
  const { board } = await readBoard(uri);
  if (i.shot !== undefined && !board.shots.some((s) => s.id === i.shot))
    throw new FeatureToolError(vscode.l10n.t('The board has no shot "{0}".', i.shot));
  const units = allUnits(board).filter((u) => i.shot === undefined || u.shotId === i.shot);
  const fb = fallback(feature.videoModel());
  const sum = runSummary(board, units, fb);
  // The requests this approval stands for, frozen now (images by content hash): the run sends these
  // or asks again, and the lm tool's invoke matches its confirmation by them, not by path and shot.
  const approved = await freezeUnits(board, units, uri.fsPath, fb);
  // Each clip priced as it will be sent (model, seconds, resolution), so the total can be named;
  // the keyframes made first are billed as images and named with them.
  const shotIds = new Set(units.map((u) => u.shotId));
  const keyQuotes = await keyframeQuotes(s, board, shotIds);
  const quotes = [...(await Promise.all(approved.map((a) => feature.quote(a)))), ...keyQuotes];
  return {
    key: `${uri.fsPath}\n${i.shot ?? ''}\n${createHash('sha256').update(JSON.stringify(approved)).digest('hex')}`,
    approved,
    quotes,
    what: keyQuotes.length
      ? vscode.l10n.t('{0} clip(s) and {1} keyframe image(s)', approved.length, keyQuotes.length)
      : vscode.l10n.t('{0} clip(s)', approved.length),
    summary: [
      vscode.l10n.t(
        'Generate {0} shot(s) of "{1}" ({2}): up to {3} clip(s), {4} s in all, with {5}. Takes that already have a clip are skipped.',
        sum.shots,
        board.title,
        i.path,
        sum.clips,
        sum.seconds,
        sum.models.join(', '),
      ),
      Keyframes.line(board, shotIds),
      boardPriceLine(quotes),
      vscode.l10n.t('Billed to your gateway account.'),
    ]
      .filter(Boolean)
      .join('\n'),
    run: async () => {
      await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
      const session = await waitFor(() => sessions.get(uri.fsPath));
      if (!session) throw new FeatureToolError(vscode.l10n.t('The board editor did not open; nothing was sent.'));
      // The tool's own approval (chat or VS Code) named shots, seconds and models: not asked twice.
      return session.gen.generate(i.shot, { ask: false, approved });
    },
  };
}

/** The run's price for the confirmations: the total, or why it is not known. */
export function boardPriceLine(quotes: readonly MediaQuote[]): string {
  const total = totalLine(
    quotes.map((q) => (q.known ? { known: true, quota: q.quota, amount: q.amount } : { known: false })),
  );
  const unknown = quotes.find((q) => !q.known);
  return [total ?? '', unknown && !unknown.known ? unknown.line : ''].filter(Boolean).join(' ');
}

async function waitFor<T>(get: () => T | undefined, ms = 10_000): Promise<T | undefined> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const v = get();
    if (v) return v;
  }
  return get();
}

/** "Gateway Studio: New Storyboard": a starter board in the first workspace folder, opened in its editor. */
export async function newBoardCommand(): Promise<void> {
  const root = workspaceRoots()[0];
  if (!root) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: a storyboard lives in the repository.'));
    return;
  }
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('New Storyboard'),
    prompt: vscode.l10n.t('File name (saved as <name>.storyboard.json in the workspace folder)'),
    value: 'demo',
    validateInput: (v) =>
      /^[A-Za-z0-9_-][A-Za-z0-9 ._-]{0,80}$/.test(v.trim())
        ? undefined
        : vscode.l10n.t('Letters, digits, spaces, ".", "-" and "_"'),
  });
  if (!name?.trim()) return;
  const uri = vscode.Uri.file(path.join(root, `${name.trim()}.storyboard.json`));
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
  if (!exists) {
    const board: Board = { title: name.trim(), shots: [{ id: 'shot-1', prompt: '' }] };
    await vscode.workspace.fs.writeFile(uri, Buffer.from(printBoard(board)));
  }
  await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
}
