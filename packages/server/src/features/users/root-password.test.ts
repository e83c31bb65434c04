// Root's first password: without INITIAL_ROOT_PASSWORD root gets the spec's 123456 and may do
// nothing but choose another; with it, root starts with that password and no such step.
import { afterEach, describe, expect, it } from 'vitest';
import { MSG } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';

describe.each(testDialects())("root's first password on %s", (dialect) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('makes root choose a new password, other than 123456, before anything else', async () => {
    t = await createTestApp({ dialect });
    const root = await t.login('root', '123456');
    const self = await t.call({ method: 'GET', url: '/api/user/self', as: root });
    expect(self.json()).toMatchObject({ success: true, data: { password_change_required: true } });
    for (const url of ['/api/channel/', '/api/user/?p=0', '/api/option/', '/api/token/?p=0']) {
      expectRefusal(await t.call({ method: 'GET', url, as: root }), MSG.passwordChangeRequired);
    }
    expectRefusal(
      await t.call({ method: 'PUT', url: '/api/user/self', as: root, payload: { password: '123456' } }),
      MSG.passwordTooShort,
    );
    const changed = await t.call({
      method: 'PUT',
      url: '/api/user/self',
      as: root,
      payload: { password: 'a-new-root-password' },
    });
    expect(changed.json().success, changed.body).toBe(true);
    const again = await t.login('root', 'a-new-root-password');
    const channels = await t.call({ method: 'GET', url: '/api/channel/', as: again });
    expect(channels.json().success, channels.body).toBe(true);
    const after = await t.call({ method: 'GET', url: '/api/user/self', as: again });
    expect(after.json().data.password_change_required).toBe(false);
  });

  it('starts root with INITIAL_ROOT_PASSWORD and asks for no change', async () => {
    t = await createTestApp({ dialect, config: { initialRootPassword: 'chosen-by-the-operator' } });
    const wrong = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: 'root', password: '123456' },
    });
    expect(wrong.json().success).toBe(false);
    const root = await t.login('root', 'chosen-by-the-operator');
    const self = await t.call({ method: 'GET', url: '/api/user/self', as: root });
    expect(self.json().data.password_change_required).toBe(false);
    const channels = await t.call({ method: 'GET', url: '/api/channel/', as: root });
    expect(channels.json().success, channels.body).toBe(true);
  });
});
