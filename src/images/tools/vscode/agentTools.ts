/**
 * The work behind the image tools, loaded on the first call: a call checked into a plan (the
 * catalog's rules, the workspace's image files), priced, and, once approved, sent once and saved
 * into the output folder. The chat's tools, the MCP server and the `vscode.lm` tools all come here.
 */
import * as vscode from 'vscode';
import { isGatewayError } from '../../../api/transport/errors';
import type { MediaQuote } from '../../../platform/mediaSpend';
import { checkAgentAllowance } from '../../../platform/agentSpend';
import type { Services } from '../../../platform/services';
import { editImage, generateImages, type ImageJobResult } from '../../jobs/core/imageJob';
import {
  confirmImagePrice,
  DEFAULT_IMAGE_MODEL,
  imageCatalog,
  imageClient,
  imageDialogs,
  imageOutputFolder,
  imagePriceLine,
  LAST_MODEL_KEY,
  quoteImage,
  workspaceRoots,
} from '../../base/vscode/imageRun';
import { confirmationText, issuesText, savedText } from '../core/agentText';
import { DECLINED_TEXT, ImageConfirmations, imagePlanKey, NOT_CONFIRMED_TEXT } from '../core/confirmations';
import { FeatureToolError, type FeaturePreparedCall } from '../../../contracts/featureTools';
import { planEdit, planGenerate, type ImagePlan } from '../core/plan';

export type ImageOperation = 'generate' | 'edit';

export type PreparedImageCall =
  | {
      ok: true;
      plan: Extract<ImagePlan, { ok: true }>;
      quote: MediaQuote;
      title: string;
      message: string;
      /** The approval card's line: the price, and that it is billed. */
      note: string;
      /** The plan's identity (request and input bytes), for the `vscode.lm` confirmations. */
      key: string;
    }
  | { ok: false; text: string };

/** Checks a call and prices it; nothing is sent. */
export async function prepareImageCall(
  s: Services,
  operation: ImageOperation,
  input: unknown,
): Promise<PreparedImageCall> {
  const ctx = {
    catalog: imageCatalog(s),
    defaultModel: s.context.globalState.get<string>(LAST_MODEL_KEY) ?? DEFAULT_IMAGE_MODEL,
    roots: workspaceRoots(),
  };
  const plan = operation === 'edit' ? await planEdit(input, ctx) : planGenerate(input, ctx);
  if (!plan.ok) return { ok: false, text: issuesText(plan.issues) };
  const quote = await quoteImage(s, plan.request);
  const price = imagePriceLine(quote);
  const c = confirmationText(operation, plan.request, plan.inputs?.labels ?? [], price);
  const note = vscode.l10n.t('{0} Billed to your gateway account.', /[.]$/.test(price) ? price : `${price}.`);
  return { ok: true, plan, quote, ...c, note, key: imagePlanKey(operation, plan.request, plan.inputs) };
}

/** The answer for a call that could not be sent or answered. */
export function failedText(e: unknown): string {
  const why = e instanceof Error ? e.message : String(e);
  return isGatewayError(e, 'config')
    ? `The image request was not sent: ${why}`
    : `The image request failed: ${why} Nothing was saved.`;
}

const rel = (file: string) => vscode.workspace.asRelativePath(file, false);
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Images made but not saved: said once, saved again from the same answer on request. */
function offerSaveAgain(s: Services, r: ImageJobResult): void {
  if (!r.failed.length) return;
  s.log.warn(`images: ${r.failed.length} image(s) of job ${r.jobId} not saved: ${message(r.failed[0]!.error)}`);
  const again = vscode.l10n.t('Save Again');
  void vscode.window
    .showErrorMessage(
      vscode.l10n.t(
        '{0} image(s) were made but could not be saved: {1} Saving again does not send the request again.',
        r.failed.length,
        message(r.failed[0]!.error),
      ),
      again,
    )
    .then(async (pick) => {
      if (pick !== again) return;
      const next = await r.retry();
      s.log.info(`images: saved again: ${next.saved.map((x) => x.file).join(', ')}`);
      offerSaveAgain(s, next);
    });
}

/**
 * Sends a prepared call once and saves its images. `askAbove`: ask above the user's limit first
 * (our chat's card already named the price; the limit still asks). Returns the model's answer and
 * the saved files.
 */
export async function runImageCall(
  s: Services,
  p: Extract<PreparedImageCall, { ok: true }>,
  signal: AbortSignal | undefined,
  o: { askAbove: boolean },
): Promise<{ text: string; files: string[] }> {
  const folder = await imageOutputFolder();
  if (folder === undefined)
    return { text: 'The image request was not sent: no folder is open to save it in.', files: [] };
  const { request, family, inputs } = p.plan;
  const what = vscode.l10n.t('{0} image(s) with {1}', request.n ?? 1, request.model);
  if (o.askAbove && !(await confirmImagePrice(s, p.quote, what)))
    return { text: 'The image request was not sent: the user declined its price above their limit.', files: [] };
  const { client, billed } = await imageClient(s, request.model);
  const job = { client, family, folder, request, billed, ...(signal ? { signal } : {}) };
  const r = inputs ? await editImage({ ...job, inputs }) : await generateImages(job);
  offerSaveAgain(s, r);
  const files = r.saved.map((x) => x.file);
  return {
    text: savedText(
      p.plan.operation,
      files.map(rel),
      r.failed.map((f) => message(f.error)),
      p.quote.known ? `Estimated price: ${p.quote.amount}.` : undefined,
    ),
    files,
  };
}

/**
 * Our own question before a call another agent made through `vscode.lm`: VS Code's confirmation
 * may be auto-approved, so nothing is billed without this one, which names the price, unless the
 * agents' daily allowance covers the price (the same sum video and storyboards count against).
 */
export async function confirmForAgent(s: Services, p: Extract<PreparedImageCall, { ok: true }>): Promise<boolean> {
  const allowance = await checkAgentAllowance(s, p.title.replace(/\?$/, ''), [p.quote]);
  if (!allowance.ask) return true;
  const go = vscode.l10n.t('Generate (billed)');
  const pick = await imageDialogs.current.showWarningMessage(
    vscode.l10n.t('Another agent asks to spend money: {0}. Allow it?', p.title.replace(/\?$/, '')),
    {
      modal: true,
      detail: [
        imagePriceLine(p.quote),
        vscode.l10n.t(
          "The request came from a chat agent through VS Code's tools, whose confirmation can be auto-approved; this question is Gateway Studio's own.",
        ),
        allowance.why,
      ].join('\n'),
    },
    go,
  );
  return pick === go;
}

/** A chat (or MCP) call prepared: its approval names the price; the card then shows the saved image. */
export async function chatPrepare(s: Services, op: ImageOperation, args: unknown): Promise<FeaturePreparedCall> {
  const p = await prepareImageCall(s, op, args);
  if (!p.ok) throw new FeatureToolError(p.text);
  return {
    summary: `${p.title}\n${p.message}`,
    note: p.note,
    run: async (call) => {
      let r: { text: string; files: string[] };
      try {
        r = await runImageCall(s, p, call.signal, { askAbove: true });
      } catch (e) {
        throw new FeatureToolError(failedText(e));
      }
      return { content: r.text, ...(r.files[0] ? { follow: { kind: 'image' as const, key: r.files[0] } } : {}) };
    },
  };
}

/** Plain lines as markdown: special characters escaped (a prompt is not markup), hard breaks. */
function markdownLines(lines: string): vscode.MarkdownString {
  // Not appendText: it turns every space into &nbsp;, which the confirmation dialog shows as is.
  return new vscode.MarkdownString(
    lines
      .split('\n')
      .map((l) => l.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&'))
      .join('  \n'),
  );
}

/** The plans whose `vscode.lm` confirmation was shown, each usable once. */
const confirmed = new ImageConfirmations();
const lmText = (t: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(t)]);

/** VS Code's confirmation of a `vscode.lm` call, with the price; a call that breaks a rule asks nothing. */
export async function lmPrepare(
  s: Services,
  op: ImageOperation,
  input: unknown,
): Promise<vscode.PreparedToolInvocation> {
  const p = await prepareImageCall(s, op, input);
  const busy = vscode.l10n.t('Making an image');
  if (!p.ok) return { invocationMessage: busy };
  confirmed.record(p.key);
  return { invocationMessage: busy, confirmationMessages: { title: p.title, message: markdownLines(p.message) } };
}

/**
 * Sends only the exact plan a confirmation showed, after our own question (VS Code's may be
 * auto-approved), and answers the model with the saved files.
 */
export async function lmInvoke(
  s: Services,
  op: ImageOperation,
  input: unknown,
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  const p = await prepareImageCall(s, op, input);
  if (!p.ok) return lmText(p.text);
  if (!confirmed.consume(p.key)) return lmText(NOT_CONFIRMED_TEXT);
  if (!(await confirmForAgent(s, p))) return lmText(DECLINED_TEXT);
  const ac = new AbortController();
  const sub = token.onCancellationRequested(() => ac.abort());
  try {
    return lmText((await runImageCall(s, p, ac.signal, { askAbove: false })).text);
  } catch (e) {
    return lmText(failedText(e));
  } finally {
    sub.dispose();
  }
}
