import type { Question } from '@pollscope/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { makeQuestion } from '../../../testing/factories';
import type { Locale } from '../../../i18n/locales';
import { renderScreen } from '../../../testing/render';
import { CreateQuestionForm } from './create-question-form';

const categories = [
  { id: 1, name: 'Politics' },
  { id: 3, name: 'Technology' },
];

function renderForm(onCreated: (question: Question) => void = vi.fn(), locale: Locale = 'en') {
  return renderScreen(<CreateQuestionForm categories={categories} onCreated={onCreated} onBack={vi.fn()} />, {
    locale,
  });
}

describe('CreateQuestionForm', () => {
  it('starts as a multiple-choice poll with two choices', () => {
    renderForm();
    expect(screen.getByLabelText('Type')).toHaveValue('MC');
    expect(screen.getByRole('option', { name: 'Rate 1 to 10' })).toHaveValue('RS');
    expect(screen.getByLabelText('Choice 1')).toBeInTheDocument();
    expect(screen.getByLabelText('Choice 2')).toBeInTheDocument();
    expect(screen.queryByLabelText('Choice 3')).not.toBeInTheDocument();
  });

  it('requires the question and every choice', async () => {
    const { requests } = stubApi();
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByText('Please enter your question!')).toBeInTheDocument();
    expect(screen.getAllByText('Please fill in this choice!')).toHaveLength(2);
    expect(screen.getByLabelText('Question')).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toHaveLength(0);
  });

  it('ignores typing past 127 characters in the question and 20 in the tag', async () => {
    const { user } = renderForm();
    const question = screen.getByLabelText('Question');
    const tag = screen.getByLabelText('Tag (optional)');
    expect(question).toHaveAttribute('maxLength', '127');
    expect(tag).toHaveAttribute('maxLength', '20');
    await user.type(tag, 'abcdefghijklmnopqrstuvwxyz');
    expect(tag).toHaveValue('abcdefghijklmnopqrst');
  });

  it('adds choices up to four and removes them down to two', async () => {
    const { user } = renderForm();
    expect(screen.queryByRole('button', { name: /Remove choice/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add choice' }));
    await user.click(screen.getByRole('button', { name: 'Add choice' }));
    expect(screen.getByLabelText('Choice 4')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add choice' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /Remove choice/ })).toHaveLength(4);
    await user.click(screen.getByRole('button', { name: 'Remove choice 4' }));
    await user.click(screen.getByRole('button', { name: 'Remove choice 3' }));
    expect(screen.queryByRole('button', { name: /Remove choice/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add choice' })).toBeInTheDocument();
  });

  it('rejects a tag with spaces or symbols', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Tag (optional)'), 'two words');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByText('A tag holds letters, digits, - and _ only.')).toBeInTheDocument();
  });

  it('asks a number question for whole-number bounds with the minimum below the maximum', async () => {
    const { user } = renderForm();
    await user.selectOptions(screen.getByLabelText('Type'), 'N');
    expect(screen.queryByLabelText('Choice 1')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Question'), 'How many books did you read this year?');
    await user.clear(screen.getByLabelText('Minimum'));
    await user.type(screen.getByLabelText('Minimum'), '50');
    await user.clear(screen.getByLabelText('Maximum'));
    await user.type(screen.getByLabelText('Maximum'), '10');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByText('The minimum must be below the maximum!')).toBeInTheDocument();
  });

  it('sends the poll and hands back the new question', async () => {
    const created = makeQuestion({ id: 42, qid: 42, title: 'Cats or dogs?' });
    const { requests, on } = stubApi();
    on('POST /api/polls/create/', { body: { question: created } });
    const onCreated = vi.fn();
    const { user } = renderForm(onCreated);
    await user.type(screen.getByLabelText('Question'), '  Cats or dogs? ');
    await user.type(screen.getByLabelText('Choice 1'), 'Cats');
    await user.type(screen.getByLabelText('Choice 2'), 'Dogs');
    await user.type(screen.getByLabelText('Tag (optional)'), '#pets');
    await user.selectOptions(screen.getByLabelText('Category (optional)'), 'Technology');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledWith(created));
    expect(requests[0].body).toEqual({
      type: 'MC',
      question: 'Cats or dogs?',
      choices: ['Cats', 'Dogs'],
      tags: ['pets'],
      category: 3,
      language: 'en',
    });
  });

  it('offers the question’s language, the interface’s first, and sends the one chosen', async () => {
    const { requests, on } = stubApi();
    on('POST /api/polls/create/', { body: { question: makeQuestion({ language: 'ja' }) } });
    const { user } = renderForm();
    const language = screen.getByLabelText('Written in');
    expect(language).toHaveValue('en');
    const common = within(language).getByRole('group', { name: 'Common languages' });
    expect(
      within(common)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['English', 'German', 'French', 'Spanish', 'Italian', 'Portuguese', 'Japanese', 'Arabic']);
    const other = within(language).getByRole('group', { name: 'Other languages' });
    expect(within(other).getByRole('option', { name: 'Korean' })).toHaveValue('ko');
    expect(within(other).queryByRole('option', { name: 'German' })).not.toBeInTheDocument();

    await user.selectOptions(language, 'Japanese');
    await user.type(screen.getByLabelText('Question'), 'お茶とコーヒー、どっち？');
    await user.type(screen.getByLabelText('Choice 1'), 'お茶');
    await user.type(screen.getByLabelText('Choice 2'), 'コーヒー');
    expect(screen.getByLabelText('Question')).toHaveAttribute('lang', 'ja');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0].body).toMatchObject({ question: 'お茶とコーヒー、どっち？', language: 'ja' });
  });

  it('names the languages in the reader’s language and starts at it', async () => {
    renderForm(vi.fn(), 'pt-BR');
    const language = await screen.findByLabelText('Idioma da pergunta');
    expect(language).toHaveValue('pt');
    expect(within(language).getByRole('option', { name: 'Alemão' })).toHaveValue('de');
  });

  it('shows the server message when the poll is refused', async () => {
    stubApi().on('POST /api/polls/create/', {
      status: 400,
      body: { message: 'Question must be shorter than 128 characters' },
    });
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Question'), 'Rate the new park');
    await user.selectOptions(screen.getByLabelText('Type'), 'RS');
    const form = screen.getByRole('form', { name: 'Create Poll' });
    await user.click(within(form).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Question must be shorter than 128 characters');
  });

  it('says "Please Wait..." while the poll is being sent', async () => {
    let release: (value: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (release = resolve))),
    );
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Question'), 'Rate the new park');
    await user.selectOptions(screen.getByLabelText('Type'), 'RS');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByRole('button', { name: 'Please Wait...' })).toBeDisabled();
    release(new Response(JSON.stringify({ question: makeQuestion() }), { status: 200 }));
  });
});
