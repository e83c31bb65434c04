// Calls of user management: the list (through the list kit), the row actions, create and edit.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ManageResult,
  Page,
  PublicUser,
  SelfUpdateInput,
  UserAction,
  UserCreateInput,
  UserUpdateInput,
} from '@sluice/shared';
import type { ListFetchArgs } from '../../components/data-table';
import { api } from '../../lib/api';

export const USER_LIST_ID = 'users';

/** With page_size the list and the search answer new-api's page object, paged with a 1-based p. */
export function fetchUserPage({ page, pageSize, filters, signal }: ListFetchArgs): Promise<Page<PublicUser>> {
  const keyword = filters.keyword ?? '';
  const group = filters.group ?? '';
  const paging = { p: page + 1, page_size: pageSize };
  return keyword || group
    ? api.get<Page<PublicUser>>('/api/user/search', { ...paging, keyword, group }, { signal })
    : api.get<Page<PublicUser>>('/api/user/', paging, { signal });
}

export const useGroups = () =>
  useQuery({ queryKey: ['groups'], queryFn: () => api.get<string[]>('/api/group/'), staleTime: 60_000 });

export const manageUser = (id: number, action: UserAction) =>
  api.post<ManageResult>('/api/user/manage', { id, action });

export const useCreateUser = () =>
  useMutation({ mutationFn: (input: UserCreateInput) => api.post<PublicUser>('/api/user/', input) });

const userKey = (id: number | 'self') => ['user', id] as const;

/** Another user (admin), or the caller's own account when id is 'self'. */
export const useUserDetail = (id: number | 'self', enabled = true) =>
  useQuery({
    queryKey: userKey(id),
    enabled,
    queryFn: () => api.get<PublicUser>(id === 'self' ? '/api/user/self' : `/api/user/${id}`),
  });

/** After an edit the list and both copies of the profile are stale. */
function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['list', USER_LIST_ID] }),
      queryClient.invalidateQueries({ queryKey: ['user'] }),
    ]);
}

export const useUpdateUser = () => {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (input: UserUpdateInput) => api.put<PublicUser>('/api/user/', input),
    onSuccess: invalidate,
  });
};

/** Adds a signed amount to a user's quota at once, so spend made while the form is open is kept. */
export const useAddQuota = () => {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, value }: { id: number; value: number }) =>
      api.post<ManageResult>('/api/user/manage', { id, action: 'add_quota', value }),
    onSuccess: invalidate,
  });
};

export const useUpdateSelf = () => {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (input: SelfUpdateInput) => api.put<PublicUser>('/api/user/self', input),
    onSuccess: invalidate,
  });
};
