/**
 * What the image tools say to a model and to the person approving: the descriptions, the
 * confirmation with the price, the answer with the saved files' workspace paths, a refusal's
 * rules. Plain text without VS Code, so tests read exactly what a model reads.
 */
import type { ImageJobRequest } from '../../jobs/core/imageJob';
import type { ImageToolIssue } from './toolInput';

/** The issues of a refused call, one line each, for the model to act on. */
export function issuesText(issues: readonly ImageToolIssue[]): string {
  return [
    'The image request was not sent: it breaks these rules (fix the input and call again).',
    ...issues.map((i) => `- ${i.rule} (${i.field}): ${i.message}`),
  ].join('\n');
}

/** The approval's title and lines: model, what is asked, the inputs, the price, that it is billed. */
export function confirmationText(
  operation: 'generate' | 'edit',
  r: ImageJobRequest,
  inputs: readonly string[],
  price: string,
): { title: string; message: string } {
  const n = r.n ?? 1;
  const lines = [
    `Model: ${r.model}`,
    `Images: ${n}`,
    ...(r.size ? [`Size: ${r.size}`] : []),
    ...(r.quality ? [`Quality: ${r.quality}`] : []),
    ...(operation === 'edit' ? [`Image: ${inputs[0] ?? ''}`, ...(inputs[1] ? [`Mask: ${inputs[1]}`] : [])] : []),
    `Prompt: ${r.prompt}`,
    price,
    '',
    'This is billed to your gateway account.',
  ];
  const what = operation === 'edit' ? `Edit ${inputs[0] ?? 'an image'}` : `Generate ${n} image${n > 1 ? 's' : ''}`;
  return { title: `${what} with ${r.model}?`, message: lines.join('\n') };
}

/** The answer once the images are saved (and which could not be, without a second request). */
export function savedText(
  operation: 'generate' | 'edit',
  files: readonly string[],
  failures: readonly string[],
  charge?: string,
): string {
  const done =
    files.length > 0
      ? `${operation === 'edit' ? 'Edited image saved' : `Saved ${files.length} image(s)`} to: ${files.join(', ')}.`
      : 'The gateway answered, but no image could be saved.';
  return [
    done,
    ...(failures.length
      ? [
          `Not saved (the gateway already made and billed them; do not call again for these, the user can retry the save): ${failures.join('; ')}`,
        ]
      : []),
    ...(charge ? [charge] : []),
  ].join(' ');
}
