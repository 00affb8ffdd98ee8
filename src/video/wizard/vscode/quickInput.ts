// The wizard's steps: quick picks and input boxes with a Back button, numbered out of TOTAL.
import * as vscode from 'vscode';

/** A step's answer when the user pressed Back. */
export const BACK = Symbol('back');
export type Step<T> = T | typeof BACK | undefined;

export interface PickItem<T> extends vscode.QuickPickItem {
  value: T;
}

/** Model, prompt, images, seconds, aspect ratio, resolution. */
export const TOTAL = 6;

export function title(): string {
  return vscode.l10n.t('Gateway Studio: Generate Video');
}

/** One quick-pick step with a Back button (from step 2 on); undefined when the user cancels. */
export function pick<T>(step: number, placeholder: string, items: PickItem<T>[], active?: T): Promise<Step<T>> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<PickItem<T>>();
    qp.title = title();
    qp.step = step;
    qp.totalSteps = TOTAL;
    qp.placeholder = placeholder;
    qp.items = items;
    qp.ignoreFocusOut = true;
    const act = items.find((i) => i.value === active);
    if (act) qp.activeItems = [act];
    if (step > 1) qp.buttons = [vscode.QuickInputButtons.Back];
    let done = false;
    const finish = (v: Step<T>) => {
      if (done) return;
      done = true;
      resolve(v);
      qp.dispose();
    };
    qp.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(BACK);
    });
    qp.onDidAccept(() => finish(qp.selectedItems[0]?.value));
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}

/** One input-box step with a Back button; `check` returns why a value is refused. */
export function input(
  step: number,
  prompt: string,
  value: string,
  check: (v: string) => string | undefined,
  placeholder?: string,
): Promise<Step<string>> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = title();
    box.step = step;
    box.totalSteps = TOTAL;
    box.prompt = prompt;
    box.value = value;
    box.placeholder = placeholder;
    box.ignoreFocusOut = true;
    if (step > 1) box.buttons = [vscode.QuickInputButtons.Back];
    let done = false;
    const finish = (v: Step<string>) => {
      if (done) return;
      done = true;
      resolve(v);
      box.dispose();
    };
    box.onDidChangeValue((v) => {
      box.validationMessage = v.trim() === '' ? undefined : check(v);
    });
    box.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(BACK);
    });
    box.onDidAccept(() => {
      const problem = check(box.value);
      if (problem) box.validationMessage = problem;
      else finish(box.value);
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}
