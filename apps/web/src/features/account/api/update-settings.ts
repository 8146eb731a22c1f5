import type { SettingsUpdateBody } from '@pollscope/contract';
import { mutate } from 'swr';
import { ApiError, apiPost } from '../../../lib/api-client';
import { settingsKey } from './get-settings';

export async function updateSettings(body: SettingsUpdateBody) {
  const result = await apiPost('/api/auth/settings/', { body });
  if (!(result instanceof ApiError)) await mutate(settingsKey, result, { revalidate: false });
  return result;
}
