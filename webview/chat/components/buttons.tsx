/** Codicons and the two button shapes the chat uses. Text goes in as JSX text: always escaped. */
import type { ButtonHTMLAttributes, JSX } from 'preact';

export function Icon({ name, spin }: { name: string; spin?: boolean }): JSX.Element {
  return <span class={`codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`} aria-hidden="true" />;
}

type ButtonExtras = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'icon' | 'label' | 'onClick'>;

/** An icon button with an accessible name (and the same text as tooltip). */
export function IconButton({
  icon,
  label,
  onClick,
  ...extra
}: { icon: string; label: string; onClick: (ev: MouseEvent) => void } & ButtonExtras): JSX.Element {
  return (
    <button type="button" class="icon-btn" aria-label={label} title={label} onClick={onClick} {...extra}>
      <Icon name={icon} />
    </button>
  );
}

/** A button with icon and visible text. */
export function TextButton({
  icon,
  label,
  onClick,
  ...extra
}: { icon?: string; label: string; onClick: (ev: MouseEvent) => void } & ButtonExtras): JSX.Element {
  return (
    <button type="button" class="text-btn" onClick={onClick} {...extra}>
      {icon ? <Icon name={icon} /> : null}
      <span>{label}</span>
    </button>
  );
}
