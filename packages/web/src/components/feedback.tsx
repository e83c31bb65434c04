// Toasts and dialogs for every page: `const { message, modal } = useFeedback()`.
// antd's <App> would give the same, but its modal and notification code weighs ~27 kB gzip on
// every route (measured); here toasts go to antd's message, whose holder loads in its own chunk right
// after the first paint (toasts asked for before it arrives are shown when it does), and the dialogs
// are antd Modals loaded on first use. lib/api.ts's error toasts go through the same message API.
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

type ToastKind = 'success' | 'error' | 'info' | 'warning';
type ToastContent = Parameters<MessageInstance['success']>[0];

/** The toast calls the console makes; each shows one message. */
export type Toasts = Record<ToastKind, (content: ToastContent) => void>;

interface Feedback {
  message: Toasts;
  modal: ModalApi;
}

const FeedbackContext = createContext<Feedback | null>(null);
let nextDialogId = 1;
const Dialogs = lazy(() => import('./dialogs').then((m) => ({ default: m.Dialogs })));
const MessageHost = lazy(() => import('./message-host').then((m) => ({ default: m.MessageHost })));

/** Toasts that wait for antd's message holder to arrive, then go straight to it. */
function createToaster() {
  let host: MessageInstance | null = null;
  const waiting: Array<[ToastKind, ToastContent]> = [];
  const show = (kind: ToastKind) => (content: ToastContent) => {
    if (host) void host[kind](content);
    else waiting.push([kind, content]);
  };
  return {
    toasts: {
      success: show('success'),
      error: show('error'),
      info: show('info'),
      warning: show('warning'),
    } as Toasts,
    attach(api: MessageInstance) {
      host = api;
      for (const [kind, content] of waiting.splice(0)) void api[kind](content);
    },
  };
}

export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [toaster] = useState(createToaster);
  const message = toaster.toasts;
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
      <Suspense fallback={null}>
        <MessageHost onReady={toaster.attach} />
      </Suspense>
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
