// The add-user drawer: username and password are required (the form stops and marks the fields),
// the display name is optional. New users are regular users in the default group.
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Drawer, Form, Input, Space } from 'antd';
import { displayNameSchema, passwordSchema, usernameSchema } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { useDrawerSize } from '../../components/drawer-size';
import { useFeedback } from '../../components/feedback';
import { zodRule } from '../../lib/form-rules';
import { useCreateUser } from './api';

interface AddUserValues {
  username: string;
  display_name?: string;
  password: string;
}

export function AddUserDrawer({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(): void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const size = useDrawerSize();
  const [form] = Form.useForm<AddUserValues>();
  const create = useCreateUser();

  const submit = (values: AddUserValues) =>
    create.mutate(
      {
        username: values.username.trim(),
        password: values.password,
        ...(values.display_name?.trim() ? { display_name: values.display_name.trim() } : {}),
      },
      {
        onSuccess: () => {
          void message.success(t('users.created'));
          form.resetFields();
          onCreated();
          onClose();
        },
      },
    );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('users.add')}
      size={size}
      placement="left"
      destroyOnHidden
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('users.form.cancel')}</Button>
          <Button type="primary" loading={create.isPending} onClick={() => form.submit()}>
            {t('users.form.create')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} autoComplete="off">
        <Form.Item name="username" label={t('users.form.username')} rules={[zodRule(usernameSchema)]}>
          <Input prefix={<UserOutlined />} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="display_name"
          label={t('users.form.displayName')}
          rules={[zodRule(displayNameSchema)]}
        >
          <Input placeholder={t('users.form.displayNamePlaceholder')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="password" label={t('users.form.password')} rules={[zodRule(passwordSchema)]}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('users.form.passwordPlaceholder')}
            autoComplete="new-password"
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
