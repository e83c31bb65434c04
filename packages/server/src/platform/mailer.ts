// Sends mail through the SMTP server named in the options (SMTPServer, SMTPPort, …).
import type { OptionStore } from '../features/options/option-store.js';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
}

export interface Mailer {
  /** True when the SMTP options are filled in. */
  configured(): boolean;
  send(message: MailMessage): Promise<void>;
}

export function createSmtpMailer(options: OptionStore): Mailer {
  const configured = () => options.get('SMTPServer') !== '' && options.get('SMTPAccount') !== '';
  return {
    configured,
    async send(message) {
      if (!configured()) throw new Error('SMTP is not configured');
      const port = options.get('SMTPPort');
      // Loaded on the first mail: most servers send few, and the library is large.
      const nodemailer = (await import('nodemailer')).default;
      const transport = nodemailer.createTransport({
        host: options.get('SMTPServer'),
        port,
        secure: options.get('SMTPSSLEnabled') || port === 465,
        auth: { user: options.get('SMTPAccount'), pass: options.get('SMTPToken') },
        // The certificate is checked (a man in the middle would read the SMTP password) unless the
        // operator explicitly accepts a self-signed server.
        tls: { rejectUnauthorized: !options.get('SMTPAllowSelfSigned') },
      });
      try {
        await transport.sendMail({
          from: options.get('SMTPFrom') || options.get('SMTPAccount'),
          to: message.to,
          subject: message.subject,
          html: message.html,
        });
      } finally {
        transport.close();
      }
    },
  };
}
