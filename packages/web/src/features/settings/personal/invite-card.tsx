// The invite link and its earnings, with the transfer of pending earnings into quota.
import { CopyOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Card, Col, Form, Input, InputNumber, Modal, Row, Space, Statistic } from 'antd';
import { makeAffTransferSchema } from '@sluice/shared';
import type { PublicUser } from '@sluice/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../../components/copy';
import { useFormatQuota } from '../../../components/quota';
import { useStatus } from '../../../lib/status';
import { useAffCode, useAffTransfer } from './api';
import { useFeedback } from '../../../components/feedback';

export const inviteLink = (origin: string, code: string) =>
  `${origin}/register?aff=${encodeURIComponent(code)}`;

function TransferModal({ user, open, onClose }: { user: PublicUser; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const status = useStatus();
  const formatQuota = useFormatQuota();
  const transfer = useAffTransfer();
  const [amount, setAmount] = useState<number | null>(user.aff_quota);
  const [problem, setProblem] = useState<string | null>(null);
  const perUnit = status.quota_per_unit;

  const submit = () => {
    const parsed = makeAffTransferSchema(perUnit).safeParse({ quota: amount ?? 0 });
    if (!parsed.success) {
      setProblem(t('personal.transferMinimum', { min: formatQuota(perUnit) }));
      return;
    }
    setProblem(null);
    transfer.mutate(parsed.data.quota, {
      onSuccess: () => {
        void message.success(t('personal.transferDone'));
        onClose();
      },
    });
  };

  return (
    <Modal
      open={open}
      title={t('personal.transferTitle')}
      onCancel={onClose}
      onOk={submit}
      okText={t('personal.transfer')}
      confirmLoading={transfer.isPending}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('personal.pendingEarnings')}>
          <Input value={formatQuota(user.aff_quota)} readOnly />
        </Form.Item>
        <Form.Item
          label={t('personal.transferAmount')}
          extra={t('personal.transferMinimum', { min: formatQuota(perUnit) })}
          validateStatus={problem ? 'error' : undefined}
          help={problem ?? undefined}
        >
          <InputNumber
            value={amount}
            onChange={setAmount}
            min={0}
            max={user.aff_quota}
            precision={0}
            style={{ width: '100%' }}
            aria-label={t('personal.transferAmount')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function InviteCard({ user }: { user: PublicUser }) {
  const { t } = useTranslation();
  const aff = useAffCode();
  const copy = useCopy();
  const formatQuota = useFormatQuota();
  const [transferOpen, setTransferOpen] = useState(false);
  const link = aff.data ? inviteLink(window.location.origin, aff.data) : '';

  return (
    <Card
      title={t('personal.inviteTitle')}
      style={{ height: '100%' }}
      extra={
        <Button icon={<SwapOutlined />} onClick={() => setTransferOpen(true)} disabled={user.aff_quota <= 0}>
          {t('personal.transfer')}
        </Button>
      }
    >
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Col xs={12} sm={8}>
          <Statistic title={t('personal.pendingEarnings')} value={formatQuota(user.aff_quota)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('personal.totalEarnings')} value={formatQuota(user.aff_history_quota)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('personal.inviteCount')} value={user.aff_count} />
        </Col>
      </Row>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={link}
          readOnly
          aria-label={t('personal.inviteLink')}
          placeholder={t('common.loading')}
        />
        <Button icon={<CopyOutlined />} disabled={!link} onClick={() => void copy(link)}>
          {t('common.copy')}
        </Button>
      </Space.Compact>
      {transferOpen && (
        <TransferModal user={user} open={transferOpen} onClose={() => setTransferOpen(false)} />
      )}
    </Card>
  );
}
