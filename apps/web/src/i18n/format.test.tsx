import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { useFormat } from './format';

const formatIn = (locale: string) =>
  renderHook(() => useFormat(), {
    wrapper: ({ children }: { children: ReactNode }) => <IntlProvider locale={locale}>{children}</IntlProvider>,
  }).result.current;

describe('useFormat', () => {
  it('writes a day in UTC, as English does in the spec and as each locale does', () => {
    // 23:30 in UTC: the day stays the 4th wherever the reader is.
    expect(formatIn('en').day('2026-05-04T23:30:00Z')).toBe('4 May 2026');
    expect(formatIn('de').day('2026-05-04T23:30:00Z')).toBe('4. Mai 2026');
    expect(formatIn('ja').day('2026-05-04T23:30:00Z')).toBe('2026年5月4日');
  });

  it('shows a text that is not a date as it came', () => {
    expect(formatIn('fr').day('soon')).toBe('soon');
  });

  it('writes counts, averages, percentages and relative times by the locale', () => {
    const german = formatIn('de');
    expect(german.count(12345)).toBe('12.345');
    expect(german.average(6.25)).toBe('6,25');
    expect(german.percent(42)).toBe('42\u00a0%');
    const now = Date.parse('2026-05-04T12:00:00Z');
    expect(formatIn('en').relative('2026-05-04T09:00:00Z', now)).toBe('3 hours ago');
    expect(german.relative('2026-05-03T12:00:00Z', now)).toBe('gestern');
  });
});
