import { useState } from 'react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { Button } from '../../../components/ui/button';
import { HeartIcon } from '../../../components/ui/icons';
import { ApiError } from '../../../lib/api-client';
import { setLiked } from '../api/like-question';

interface LikeButtonProps {
  questionId: number;
  liked: boolean;
  count: number;
  onChange: (liked: boolean) => void;
}

/** Likes or unlikes, whichever the current state calls for; the server's answer sets the new state. */
export function LikeButton({ questionId, liked, count, onChange }: LikeButtonProps) {
  const [pending, setPending] = useState(false);

  async function toggle() {
    setPending(true);
    const result = await setLiked(questionId, !liked);
    setPending(false);
    if (!(result instanceof ApiError)) onChange(result.liked);
  }

  return (
    <Button
      variant="ghost"
      size="small"
      className={liked ? 'like-button like-button--on' : 'like-button'}
      aria-pressed={liked}
      pending={pending}
      onClick={toggle}
    >
      <HeartIcon filled={liked} />
      <span>
        <FormattedMessage id="questions.card.like" />
      </span>
      <span className="like-button__count">
        <FormattedNumber value={count} />
      </span>
    </Button>
  );
}
