// antd's toast holder, in its own chunk: the console needs it only once something is announced, so
// the first page a visitor opens does not wait for it.
import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { useEffect } from 'react';

export function MessageHost({ onReady }: { onReady(api: MessageInstance): void }) {
  const [api, holder] = message.useMessage();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
