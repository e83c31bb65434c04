// An email field with a "send code" button locked for 30 seconds after each send. Sending with an
// empty email does nothing (spec part 1 §5).
import { Button, Form, Input, Space } from 'antd';
import type { FormInstance } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_CODE_RESEND_SECONDS, emailAddressSchema } from '@sluice/shared';
import { useCountdown } from '../../../components/use-countdown';
import { zodRule } from '../../../lib/form-rules';

export function EmailCodeFields({
  form,
  send,
  codeName = 'verification_code',
}: {
  form: FormInstance;
  /** Mails the code; resolves when the server accepted the address. */
  send(email: string): Promise<boolean>;
  codeName?: string;
}) {
  const { t } = useTranslation();
  const [left, start] = useCountdown();
  const [sending, setSending] = useState(false);
  const emailId = useId();

  const onSend = async () => {
    const email = String(form.getFieldValue('email') ?? '').trim();
    if (!email) return;
    setSending(true);
    try {
      if (await send(email)) start(EMAIL_CODE_RESEND_SECONDS);
    } catch {
      // lib/api.ts already showed why.
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Form.Item label={t('auth.email')} htmlFor={emailId} required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="email" noStyle rules={[zodRule(emailAddressSchema)]}>
            <Input id={emailId} type="email" autoComplete="email" placeholder={t('auth.emailPlaceholder')} />
          </Form.Item>
          <Button onClick={() => void onSend()} disabled={left > 0} loading={sending}>
            {left > 0 ? t('auth.resendIn', { seconds: left }) : t('auth.sendCode')}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Form.Item
        name={codeName}
        label={t('auth.verificationCode')}
        rules={[{ required: true, whitespace: true, message: t('msg.enterEmailCode') }]}
      >
        <Input autoComplete="one-time-code" placeholder={t('auth.verificationCodePlaceholder')} />
      </Form.Item>
    </>
  );
}
