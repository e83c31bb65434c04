// Calls of the personal settings tab: own profile, models, invite, bindings, quota warning settings,
// access token, account.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SelfUser, TelegramAuthQuery, UserSetting } from '@sluice/shared';
import { api } from '../../../lib/api';

export const selfQueryKey = ['user', 'self'] as const;

export const useSelf = () =>
  useQuery({ queryKey: selfQueryKey, queryFn: () => api.get<SelfUser>('/api/user/self') });

export const useUserModels = () =>
  useQuery({ queryKey: ['user', 'models'], queryFn: () => api.get<string[]>('/api/user/models') });

export const useAffCode = () =>
  useQuery({ queryKey: ['user', 'aff'], queryFn: () => api.get<string>('/api/user/aff') });

/** Refreshes the profile after anything that changes it. */
function useSelfMutation<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfQueryKey }),
  });
}

export const useAffTransfer = () =>
  useSelfMutation((quota: number) => api.post<null>('/api/user/aff_transfer', { quota }));

export const useUpdateSetting = () =>
  useSelfMutation((setting: UserSetting) => api.put<null>('/api/user/setting', setting));

export const useGenerateAccessToken = () =>
  useMutation({ mutationFn: () => api.get<string>('/api/user/token') });

export const useChangePassword = () =>
  useMutation({ mutationFn: (password: string) => api.put<null>('/api/user/self', { password }) });

export const useDeleteSelf = () => useMutation({ mutationFn: () => api.delete<null>('/api/user/self') });

export const useBindEmail = () =>
  useSelfMutation((input: { email: string; code: string }) => api.get<null>('/api/oauth/email/bind', input));

export const useBindWeChat = () =>
  useSelfMutation((code: string) => api.get<null>('/api/oauth/wechat/bind', { code }));

export const useBindTelegram = () =>
  useSelfMutation((query: TelegramAuthQuery) => api.get<null>('/api/oauth/telegram/bind', { ...query }));
