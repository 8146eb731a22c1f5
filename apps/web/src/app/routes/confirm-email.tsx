import { useSearchParams } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { ConfirmEmail } from '../../features/account/components/confirm-email';
import { AuthPage } from '../../features/auth/components/auth-page';

export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token');
  return (
    <AuthPage title="Confirm your new email" subtitle="The link in the mail makes it the email of your account.">
      <title>New email · POLLSCOPE</title>
      <div className="card">
        {token ? (
          <ConfirmEmail token={token} />
        ) : (
          <Banner tone="error">This link is not complete: open the one in the mail again.</Banner>
        )}
      </div>
    </AuthPage>
  );
}
