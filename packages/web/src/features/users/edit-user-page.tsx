// /user/edit/:id (admin: username, password, display name, group; quota only through the add-quota
// call, so spend made while the form is open is never overwritten) and /user/edit (own account: no
// group or quota). Bindings are shown read-only; they change only through the binding flows.
// The own-account form is open to regular users, so it calls no admin-only route (the group list).
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
import { useAddQuota, useGroups, useUpdateSelf, useUpdateUser, useUserDetail } from './api';

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

/** Only for editing another user: the group list is an admin-only call. */
function GroupField({ current }: { current: string }) {
  const { t } = useTranslation();
  const groups = useGroups();
  const options = [...new Set([...(groups.data ?? []), current])].map((g) => ({ value: g, label: g }));
  return (
    <Form.Item name="group" label={t('users.form.group')} rules={[zodRule(groupSchema)]}>
      <Select showSearch options={options} loading={groups.isPending} />
    </Form.Item>
  );
}

/** Read-only balance; the add-quota dialog changes it on the server at once and shows the result. */
function QuotaField({
  form,
  userId,
}: {
  form: ReturnType<typeof Form.useForm<EditValues>>[0];
  userId: number;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const formatQuota = useFormatQuota();
  const addQuota = useAddQuota();
  const [adding, setAdding] = useState(false);
  const quota = Form.useWatch('quota', form) ?? 0;
  const add = (value: number) =>
    addQuota.mutate(
      { id: userId, value },
      {
        onSuccess: (result) => {
          if (result.quota !== undefined) form.setFieldValue('quota', result.quota);
          void message.success(t('users.form.quotaAdded'));
        },
      },
    );
  return (
    <>
      <Form.Item label={t('users.form.quota')} required={false}>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="quota" noStyle>
            <InputNumber<number>
              precision={0}
              style={{ width: '100%' }}
              aria-label={t('users.form.quota')}
              readOnly
              variant="filled"
            />
          </Form.Item>
          <Button icon={<PlusOutlined />} loading={addQuota.isPending} onClick={() => setAdding(true)}>
            {t('users.form.addQuota')}
          </Button>
        </Space.Compact>
        <div style={{ marginTop: 4, opacity: 0.65 }}>
          {t('users.form.quotaHint', { value: formatQuota(quota) })}
        </div>
      </Form.Item>
      <AddQuotaModal open={adding} current={quota} onClose={() => setAdding(false)} onAdd={add} />
    </>
  );
}

function EditForm({ user, self }: { user: PublicUser; self: boolean }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const location = useLocation();
  const [form] = Form.useForm<EditValues>();
  const updateUser = useUpdateUser();
  const updateSelf = useUpdateSelf();
  const saving = updateUser.isPending || updateSelf.isPending;

  // Back to where the admin came from (keeps the list's page and search), else to the list.
  const back = () =>
    location.key !== 'default' ? void navigate(-1) : void navigate(self ? '/setting' : '/user');

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
      { id: user.id, ...profile, group: values.group },
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
            <GroupField current={user.group} />
          </Col>
        )}
        {!self && (
          <Col xs={24} md={12}>
            <QuotaField form={form} userId={user.id} />
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
