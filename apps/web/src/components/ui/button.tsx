import type { ComponentProps } from 'react';
import { FormattedMessage } from 'react-intl';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

interface ButtonProps extends ComponentProps<'button'> {
  variant?: Variant;
  size?: 'normal' | 'small';
  block?: boolean;
  /** While a call is under way the button is disabled and says so. */
  pending?: boolean;
}

export function buttonClass({
  variant = 'secondary',
  size = 'normal',
  block = false,
}: Pick<ButtonProps, 'variant' | 'size' | 'block'> = {}): string {
  return ['btn', `btn--${variant}`, size === 'small' && 'btn--small', block && 'btn--block'].filter(Boolean).join(' ');
}

export function Button({
  variant,
  size,
  block,
  pending = false,
  className,
  disabled,
  children,
  type = 'button',
  ...props
}: ButtonProps) {
  const classes = [buttonClass({ variant, size, block }), className].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || pending} aria-busy={pending || undefined} {...props}>
      {pending ? <FormattedMessage id="ui.button.pending" /> : children}
    </button>
  );
}
