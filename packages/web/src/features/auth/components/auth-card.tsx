// The frame of the sign-in screens: a centred panel under the site's logo and name. Plain elements
// rather than antd's Card, which brings Tabs along and would add ~15 kB to /login.
import { theme } from 'antd';
import type { ReactNode } from 'react';
import { DEFAULT_LOGO, useStatus } from '../../../lib/status';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const status = useStatus();
  const { token } = theme.useToken();
  return (
    <div style={{ display: 'flex', justifyContent: 'center', paddingTop: 16 }}>
      <section
        aria-label={title}
        style={{
          width: '100%',
          maxWidth: 420,
          padding: '28px 24px 20px',
          background: token.colorBgContainer,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadowTertiary,
          color: token.colorText,
        }}
      >
        <div
          style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8, marginBottom: 20 }}
        >
          <img src={status.logo || DEFAULT_LOGO} alt="" width={48} height={48} style={{ borderRadius: 10 }} />
          <h1 style={{ margin: 0, fontSize: 22, fontWeight: 600 }}>{title}</h1>
        </div>
        {children}
      </section>
    </div>
  );
}

/** A line of small print under a sign-in form (links to the other screens). */
export function AuthFooter({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div
      style={{
        display: 'flex',
        justifyContent: 'space-between',
        flexWrap: 'wrap',
        gap: 8,
        color: token.colorTextSecondary,
      }}
    >
      {children}
    </div>
  );
}
