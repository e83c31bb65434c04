// The playground's choices: the groups the user may chat in (with their ratios) and the models of
// the user's group. The chat itself streams through ./chat-stream.ts.
import { useQuery } from '@tanstack/react-query';
import type { UserGroups } from '@sluice/shared';
import { api } from '../../lib/api';

export const useUserGroups = () =>
  useQuery({
    queryKey: ['user', 'groups'],
    queryFn: () => api.get<UserGroups>('/api/user/self/groups'),
    staleTime: 60_000,
  });

/** Same cache entry as the personal settings' model list. */
export const useUserModels = () =>
  useQuery({ queryKey: ['user', 'models'], queryFn: () => api.get<string[]>('/api/user/models') });

export const PLAYGROUND_DEFAULT_MODEL = 'gpt-4o-mini';

/** gpt-4o-mini when the group has it (spec part 2 §9), else the first model. */
export const defaultModel = (models: string[]): string =>
  models.includes(PLAYGROUND_DEFAULT_MODEL) ? PLAYGROUND_DEFAULT_MODEL : (models[0] ?? '');
