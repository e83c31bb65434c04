// Whether visitors may create an account with the register screen: the site must take new users at
// all (RegisterEnabled) and by password (PasswordRegisterEnabled), as the server checks on submit.
import type { PublicStatus } from '@sluice/shared';

export const isRegistrationOpen = (status: Pick<PublicStatus, 'register_enabled' | 'password_register'>) =>
  status.register_enabled && status.password_register;
