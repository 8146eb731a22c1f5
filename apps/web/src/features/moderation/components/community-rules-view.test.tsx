import { COMMUNITY_RULES, REPORT_REASONS } from '@pollscope/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../../../testing/render';
import { CommunityRulesView } from './community-rules-view';

describe('CommunityRulesView', () => {
  it('states one numbered rule per report reason, each under the reason as its anchor', () => {
    renderScreen(<CommunityRulesView />, { at: '/rules' });
    const rules = within(screen.getByRole('region', { name: 'The rules' })).getAllByRole('listitem');
    expect(rules.map((rule) => rule.id)).toEqual([...REPORT_REASONS]);
    REPORT_REASONS.forEach((reason, index) => {
      expect(within(rules[index]).getByRole('heading')).toHaveAccessibleName(
        `Rule ${index + 1}: ${COMMUNITY_RULES[reason].title}`,
      );
      expect(within(rules[index]).getByText(COMMUNITY_RULES[reason].text)).toBeInTheDocument();
    });
    expect(screen.getByRole('heading', { name: 'How moderation works' })).toBeInTheDocument();
  });

  it('brings the rule a link points to into view and focus', () => {
    // jsdom lays nothing out and has no scrolling of its own.
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    try {
      renderScreen(<CommunityRulesView />, { at: '/rules#self_harm' });
      const rule = document.getElementById('self_harm');
      expect(rule).toHaveFocus();
      expect(scrollIntoView.mock.contexts).toEqual([rule]);
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });
});
