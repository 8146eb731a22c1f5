import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, votesLabel } from './question-shape';

describe('counts and dates on a card', () => {
  it('write counts as Intl writes them in English', () => {
    for (const count of [0, 7, 999, 1000, 12345, 999999, 1000000, 1234567890])
      expect(formatCount(count)).toBe(count.toLocaleString('en'));
    expect(votesLabel(1)).toBe('1 vote');
    expect(votesLabel(12345)).toBe('12,345 votes');
  });

  it('write dates as Intl writes them in British English, on the day in UTC', () => {
    const intl = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    for (let month = 0; month < 12; month += 1) {
      for (const iso of [
        new Date(Date.UTC(2026, month, 1)).toISOString(),
        new Date(Date.UTC(2025, month, 28, 23, 59)).toISOString(),
      ]) {
        expect(formatDate(iso)).toBe(intl.format(new Date(iso)));
      }
    }
    expect(formatDate('2026-05-04T23:30:00-02:00')).toBe('5 May 2026');
    expect(formatDate('not a date')).toBe('not a date');
  });
});
