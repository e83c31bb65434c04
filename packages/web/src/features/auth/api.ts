// Sign-in, registration, password reset and third-party login calls.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginResult, PublicUser, TelegramAuthQuery } from '@sluice/shared';
import { api, request } from '../../lib/api';
import { clearUser, setUser } from '../../lib/session';
import { STORAGE_KEYS, readString } from '../../lib/storage';

export type OAuthProvider = 'github' | 'linuxdo';

/** The user a sign-in answers with, or the full user (third-party logins answer with that). */
type SignedInUser = LoginResult | PublicUser;

export const storedAffCode = (): string | undefined => readString(STORAGE_KEYS.aff) || undefined;

export function useSignIn() {
  const queryClient = useQueryClient();
  return (user: SignedInUser) => {
    // A different user may have been signed in before: nothing cached for them may show.
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'status' });
    setUser(user);
  };
}

export function useLogout() {
  const queryClient = useQueryClient();
  return async () => {
    try {
      await api.get('/api/user/logout', undefined, { silent: true });
    } finally {
      clearUser();
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'status' });
    }
  };
}

export interface LoginInput {
  username: string;
  password: string;
  turnstile?: string;
}

export const useLoginMutation = () =>
  useMutation({
    mutationFn: ({ username, password, turnstile }: LoginInput) =>
      api.post<LoginResult>(
        '/api/user/login',
        { username, password },
        { query: { turnstile }, credentialsCall: true },
      ),
  });

export interface RegisterInput {
  username: string;
  password: string;
  password2: string;
  email?: string;
  verification_code?: string;
  turnstile?: string;
}

export const useRegisterMutation = () =>
  useMutation({
    mutationFn: ({ turnstile, ...body }: RegisterInput) =>
      api.post<null>('/api/user/register', { ...body, aff_code: storedAffCode() }, { query: { turnstile } }),
  });

/** GET /api/verification: mails a code to the address (registration and email binding). */
export const sendVerificationCode = (email: string, turnstile?: string) =>
  api.get<null>('/api/verification', { email, turnstile });

export const useResetRequestMutation = () =>
  useMutation({
    mutationFn: ({ email, turnstile }: { email: string; turnstile?: string }) =>
      api.get<null>('/api/reset_password', { email, turnstile }),
  });

/** POST /api/user/reset answers with the new password. */
export const useResetConfirmMutation = () =>
  useMutation({
    mutationFn: (input: { email: string; token: string }) => api.post<string>('/api/user/reset', input),
  });

export const fetchOAuthState = () => api.get<string>('/api/oauth/state', { aff: storedAffCode() });

export function authorizeUrl(provider: OAuthProvider, clientId: string, state: string): string {
  const params = new URLSearchParams({ client_id: clientId, state });
  if (provider === 'github') {
    params.set('scope', 'user:email');
    return `https://github.com/login/oauth/authorize?${params.toString()}`;
  }
  return `https://connect.linux.do/oauth2/authorize?response_type=code&${params.toString()}`;
}

/** Asks the server for a state and sends the browser to the provider (login and binding alike). */
export async function startOAuth(provider: OAuthProvider, clientId: string): Promise<void> {
  const state = await fetchOAuthState();
  window.location.assign(authorizeUrl(provider, clientId, state));
}

/** GET /api/oauth/{provider}: message 'bind' after a binding, else the signed-in user. */
export const oauthCallback = (provider: OAuthProvider, code: string, state: string) =>
  request<SignedInUser | null>('GET', `/api/oauth/${provider}`, { query: { code, state }, silent: true });

export const wechatLogin = (code: string) =>
  api.get<SignedInUser>('/api/oauth/wechat', { code, aff: storedAffCode() }, { credentialsCall: true });

export const telegramLogin = (data: TelegramAuthQuery) =>
  api.get<SignedInUser>('/api/oauth/telegram/login', { ...data }, { credentialsCall: true });
