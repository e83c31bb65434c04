// A page-sized loading indicator. Plain CSS rather than antd's Spin: it shows on every first load.
import { theme } from 'antd';

export function PageLoading() {
  const { token } = theme.useToken();
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }} role="status" aria-busy="true">
      <span
        className="page-loading"
        style={{ borderColor: token.colorPrimaryBg, borderTopColor: token.colorPrimary }}
      />
    </div>
  );
}
