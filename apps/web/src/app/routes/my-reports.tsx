import { MyReports } from '../../features/moderation/components/my-reports';

export function Component() {
  return (
    <>
      <title>Your reports · POLLSCOPE</title>
      <MyReports />
    </>
  );
}
