// Toasts and dialogs for every page: `const { message, modal } = useFeedback()`.
// antd's <App> would give the same, but its modal and notification code weighs ~27 kB gzip on
// every route (measured); here the toast API is antd's message and the dialogs are antd Modals
// loaded on first use. lib/api.ts's error toasts go through the same message API.
import { message as antMessage } from 'antd';
import type { ButtonProps } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { Suspense, createContext, lazy, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { configureApi } from '../lib/api';

export type DialogKind = 'info' | 'success' | 'warning' | 'error' | 'confirm';

export interface DialogConfig {
  title: ReactNode;
  content?: ReactNode;
  okText?: ReactNode;
  cancelText?: ReactNode;
  okButtonProps?: ButtonProps;
  /** May return a promise: the OK button shows loading until it settles; a rejection keeps it open. */
  onOk?: () => unknown;
  onCancel?: () => void;
}

export interface OpenDialog extends DialogConfig {
  id: number;
  kind: DialogKind;
}

export interface ModalApi {
  info(config: DialogConfig): void;
  success(config: DialogConfig): void;
  warning(config: DialogConfig): void;
  error(config: DialogConfig): void;
  /** OK and Cancel. */
  confirm(config: DialogConfig): void;
}

interface Feedback {
  message: MessageInstance;
  modal: ModalApi;
}

const FeedbackContext = createContext<Feedback | null>(null);
let nextDialogId = 1;
const Dialogs = lazy(() => import('./dialogs').then((m) => ({ default: m.Dialogs })));

export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [message, messageHolder] = antMessage.useMessage();
  const [dialogs, setDialogs] = useState<OpenDialog[]>([]);

  useEffect(() => {
    configureApi({
      notify: (kind, text) => {
        if (kind === 'info') void message.info(text);
        else void message.error(text);
      },
    });
  }, [message]);

  const value = useMemo<Feedback>(() => {
    const open = (kind: DialogKind) => (config: DialogConfig) =>
      setDialogs((list) => [...list, { ...config, kind, id: nextDialogId++ }]);
    return {
      message,
      modal: {
        info: open('info'),
        success: open('success'),
        warning: open('warning'),
        error: open('error'),
        confirm: open('confirm'),
      },
    };
  }, [message]);

  return (
    <FeedbackContext.Provider value={value}>
      {messageHolder}
      {children}
      {dialogs.length > 0 && (
        <Suspense fallback={null}>
          <Dialogs
            dialogs={dialogs}
            onClose={(id) => setDialogs((list) => list.filter((d) => d.id !== id))}
          />
        </Suspense>
      )}
    </FeedbackContext.Provider>
  );
}

export function useFeedback(): Feedback {
  const value = useContext(FeedbackContext);
  if (!value) throw new Error('useFeedback needs FeedbackProvider (the app layout provides it)');
  return value;
}
