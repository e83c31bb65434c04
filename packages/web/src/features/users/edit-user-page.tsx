// /user/edit/:id (admin: username, password, display name, group, quota) and /user/edit (own account:
// no group or quota). Bindings are shown read-only; they change only through the binding flows.
import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Col,
  Divider,
  Form,
  Input,
  InputNumber,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
} from 'antd';
import {
  displayNameSchema,
  groupSchema,
  optionalPasswordSchema,
  quotaSchema,
  userIdSchema,
  usernameSchema,
} from '@sluice/shared';
import type { PublicUser } from '@sluice/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useFeedback } from '../../components/feedback';
import { useFormatQuota } from '../../components/quota';
import { zodRule } from '../../lib/form-rules';
import { getUser, setUser } from '../../lib/session';
import { AddQuotaModal } from './add-quota-modal';
import { useGroups, useUpdateSelf, useUpdateUser, useUserDetail } from './api';

interface EditValues {
  username: string;
  display_name: string;
  password: string;
  group: string;
  quota: number;
}

const BINDINGS = [
  ['email', 'email'],
  ['github_id', 'github'],
  ['wechat_id', 'wechat'],
  ['telegram_id', 'telegram'],
  ['linux_do_id', 'linuxdo'],
] as const;

function Bindings({ user }: { user: PublicUser }) {
  const { t } = useTranslation();
  return (
    <>
      <Divider titlePlacement="start">{t('users.form.bindings')}</Divider>
      <Row gutter={16}>
        {BINDINGS.map(([field, label]) => (
          <Col xs={24} md={12} key={field}>
            <Form.Item label={t(`users.form.${label}`)} htmlFor={`binding-${field}`}>
              <Input
                id={`binding-${field}`}
                value={user[field] || ''}
                placeholder={t('users.form.notBound')}
                readOnly
                variant="filled"
              />
            </Form.Item>
          </Col>
        ))}
      </Row>
    </>
  );
}

function QuotaField({ form }: { form: ReturnType<typeof Form.useForm<EditValues>>[0] }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const [adding, setAdding] = useState(false);
  const quota = Form.useWatch('quota', form) ?? 0;
  return (
    <>
      <Form.Item label={t('users.form.quota')} required={false}>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="quota" noStyle rules={[zodRule(quotaSchema)]}>
            <InputNumber<number> precision={0} style={{ width: '100%' }} aria-label={t('users.form.quota')} />
          </Form.Item>
          <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('users.form.addQuota')}
          </Button>
        </Space.Compact>
        <div style={{ marginTop: 4, opacity: 0.65 }}>
          {t('users.form.quotaHint', { value: formatQuota(quota) })}
        </div>
      </Form.Item>
      <AddQuotaModal
        open={adding}
        current={quota}
        onClose={() => setAdding(false)}
        onAdd={(amount) => form.setFieldValue('quota', quota + amount)}
      />
    </>
  );
}

function EditForm({ user, self }: { user: PublicUser; self: boolean }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const location = useLocation();
  const [form] = Form.useForm<EditValues>();
  const groups = useGroups();
  const updateUser = useUpdateUser();
  const updateSelf = useUpdateSelf();
  const saving = updateUser.isPending || updateSelf.isPending;

  // Back to where the admin came from (keeps the list's page and search), else to the list.
  const back = () =>
    location.key !== 'default' ? void navigate(-1) : void navigate(self ? '/setting' : '/user');

  const groupOptions = [...new Set([...(groups.data ?? []), user.group])].map((g) => ({
    value: g,
    label: g,
  }));

  const submit = (values: EditValues) => {
    const profile = {
      username: values.username.trim(),
      display_name: (values.display_name ?? '').trim(),
      password: values.password ?? '',
    };
    if (self) {
      updateSelf.mutate(profile, {
        onSuccess: (updated) => {
          const current = getUser();
          if (current)
            setUser({ ...current, username: updated.username, display_name: updated.display_name });
          form.setFieldValue('password', '');
          void message.success(t('users.updated'));
        },
      });
      return;
    }
    updateUser.mutate(
      { id: user.id, ...profile, group: values.group, quota: Math.trunc(values.quota) },
      {
        onSuccess: () => {
          void message.success(t('users.updated'));
          back();
        },
      },
    );
  };

  return (
    <Form<EditValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      autoComplete="off"
      onFinish={submit}
      initialValues={{
        username: user.username,
        display_name: user.display_name,
        password: '',
        group: user.group,
        quota: user.quota,
      }}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="username" label={t('users.form.username')} rules={[zodRule(usernameSchema)]}>
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="display_name"
            label={t('users.form.displayName')}
            rules={[zodRule(displayNameSchema)]}
          >
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="password"
            label={t('users.form.password')}
            extra={t('users.form.keepPasswordHint')}
            rules={[zodRule(optionalPasswordSchema)]}
          >
            <Input.Password placeholder={t('users.form.passwordPlaceholder')} autoComplete="new-password" />
          </Form.Item>
        </Col>
        {!self && (
          <Col xs={24} md={12}>
            <Form.Item name="group" label={t('users.form.group')} rules={[zodRule(groupSchema)]}>
              <Select showSearch options={groupOptions} loading={groups.isPending} />
            </Form.Item>
          </Col>
        )}
        {!self && (
          <Col xs={24} md={12}>
            <QuotaField form={form} />
          </Col>
        )}
      </Row>
      <Bindings user={user} />
      <Space>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('users.form.submit')}
        </Button>
        <Button onClick={back}>{t('users.form.cancel')}</Button>
      </Space>
    </Form>
  );
}

export function EditUserPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const parsedId = params.id === undefined ? null : userIdSchema.safeParse(params.id);
  // Editing oneself by id would be refused (nobody outranks themselves): use the own-account form.
  const self = parsedId === null || (parsedId.success && parsedId.data === getUser()?.id);
  const id = self ? 'self' : parsedId?.success ? parsedId.data : null;
  const detail = useUserDetail(id ?? 'self', id !== null);

  let body;
  if (id === null) body = <Result status="404" title={t('msg.userNotFound')} />;
  else if (detail.isPending) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (!detail.data) body = <Result status="warning" title={t('common.loadFailed')} />;
  else body = <EditForm key={detail.data.id} user={detail.data} self={self} />;

  return (
    <Card
      title={
        <Space>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label={t('users.form.back')}
            onClick={() => void navigate(self ? '/setting' : '/user')}
          />
          <h1 style={{ fontSize: 'inherit', margin: 0 }}>
            {self ? t('users.editSelfTitle') : t('users.editTitle')}
          </h1>
        </Space>
      }
      style={{ maxWidth: 960 }}
    >
      {body}
    </Card>
  );
}
