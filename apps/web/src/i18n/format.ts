import { useMemo } from 'react';
import { useIntl } from 'react-intl';

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
const MOMENT: Intl.DateTimeFormatOptions = { ...DAY, hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };
const AVERAGE: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
const PERCENT: Intl.NumberFormatOptions = { style: 'percent', maximumFractionDigits: 0 };

/** Relative times, from the largest unit that fits: "3 hours ago", "vor 3 Stunden", "3 時間前". */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** The locale a date is written in: English as the spec writes it, day first ("4 May 2026", Intl's British English). */
const dateLocale = (locale: string) => (locale === 'en' ? 'en-GB' : locale);

export interface Formatters {
  /** A day in UTC: "4 May 2026", "4. Mai 2026", "2026年5月4日"; a date that does not parse as it came. */
  day(iso: string): string;
  /** A moment in UTC: "4 May 2026, 10:05 UTC". */
  moment(iso: string): string;
  /** A whole number: "12,345", "12.345", "١٢٬٣٤٥". */
  count(value: number): string;
  /** An average with two decimals: "6.25", "6,25". */
  average(value: number): string;
  /** A whole percentage from a share of 100: 42 → "42%", "42 %", "٤٢٪". */
  percent(value: number): string;
  /** How long ago (or until) a moment, from now: "3 hours ago". */
  relative(iso: string, now?: number): string;
}

/**
 * The one place the app writes dates and numbers, through react-intl's cached `Intl` formatters in
 * the reader's locale (docs/i18n.md): no screen formats a date or a number by hand.
 */
export function useFormat(): Formatters {
  const { locale, formatters } = useIntl();
  return useMemo(() => {
    const date = (iso: string, options: Intl.DateTimeFormatOptions) => {
      const value = new Date(iso);
      return Number.isNaN(value.getTime())
        ? iso
        : formatters.getDateTimeFormat(dateLocale(locale), options).format(value);
    };
    return {
      day: (iso) => date(iso, DAY),
      moment: (iso) => date(iso, MOMENT),
      count: (value) => formatters.getNumberFormat(locale).format(value),
      average: (value) => formatters.getNumberFormat(locale, AVERAGE).format(value),
      percent: (value) => formatters.getNumberFormat(locale, PERCENT).format(value / 100),
      relative: (iso, now = Date.now()) => {
        const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
        if (Number.isNaN(seconds)) return iso;
        const [unit, size] = UNITS.find(([, length]) => Math.abs(seconds) >= length) ?? UNITS[UNITS.length - 1];
        return formatters.getRelativeTimeFormat(locale, { numeric: 'auto' }).format(Math.round(seconds / size), unit);
      },
    };
  }, [locale, formatters]);
}
