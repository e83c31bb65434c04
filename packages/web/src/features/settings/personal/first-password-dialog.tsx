// Root's first start: the server lets the account do nothing but choose a new password, so the console
// shows the password form over every page, with no way to close it, until one is chosen.
import { useQueryClient } from '@tanstack/react-query';
import { getUser, setUser } from '../../../lib/session';
import { ChangePasswordModal } from './account-card';

export function FirstPasswordDialog() {
  const queryClient = useQueryClient();
  const done = () => {
    const user = getUser();
    if (user) setUser({ ...user, password_change_required: false });
    // Pages refused while the password was pending read again.
    void queryClient.invalidateQueries();
  };
  return <ChangePasswordModal open required onClose={done} />;
}
