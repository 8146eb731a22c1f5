import { CommunityRulesView } from '../../features/moderation/components/community-rules-view';

export function Component() {
  return (
    <>
      <title>Community rules · POLLSCOPE</title>
      <CommunityRulesView />
    </>
  );
}
