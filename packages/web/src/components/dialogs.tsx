// The dialogs opened through useFeedback().modal, drawn with antd's Modal.
import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  InfoCircleFilled,
} from '@ant-design/icons';
import { Button, Flex, Modal, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogKind, OpenDialog } from './feedback';

function Icon({ kind }: { kind: DialogKind }) {
  const { token } = theme.useToken();
  const style = { fontSize: 22 };
  if (kind === 'success') return <CheckCircleFilled style={{ ...style, color: token.colorSuccess }} />;
  if (kind === 'error') return <CloseCircleFilled style={{ ...style, color: token.colorError }} />;
  if (kind === 'info') return <InfoCircleFilled style={{ ...style, color: token.colorInfo }} />;
  return <ExclamationCircleFilled style={{ ...style, color: token.colorWarning }} />;
}

function Dialog({ dialog, onClose }: { dialog: OpenDialog; onClose(): void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  const [busy, setBusy] = useState(false);

  const ok = async () => {
    setBusy(true);
    try {
      await dialog.onOk?.();
      setOpen(false);
    } catch {
      // The action failed and said why; the dialog stays for another try.
    } finally {
      setBusy(false);
    }
  };
  const cancel = () => {
    dialog.onCancel?.();
    setOpen(false);
  };

  return (
    <Modal
      open={open}
      onCancel={cancel}
      afterOpenChange={(visible) => !visible && onClose()}
      width={420}
      title={
        <Flex gap={12} align="center">
          <Icon kind={dialog.kind} />
          <span>{dialog.title}</span>
        </Flex>
      }
      footer={
        <Flex justify="end" gap={8}>
          {dialog.kind === 'confirm' && (
            <Button onClick={cancel}>{dialog.cancelText ?? t('common.cancel')}</Button>
          )}
          <Button type="primary" loading={busy} onClick={() => void ok()} {...dialog.okButtonProps}>
            {dialog.okText ?? t('common.confirm')}
          </Button>
        </Flex>
      }
    >
      {dialog.content}
    </Modal>
  );
}

export function Dialogs({ dialogs, onClose }: { dialogs: OpenDialog[]; onClose(id: number): void }) {
  return dialogs.map((dialog) => (
    <Dialog key={dialog.id} dialog={dialog} onClose={() => onClose(dialog.id)} />
  ));
}
