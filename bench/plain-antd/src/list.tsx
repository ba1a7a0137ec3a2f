import { SearchOutlined, TableOutlined } from '@ant-design/icons';
import { Button, DatePicker, Drawer, Form, Input, Layout, Menu, Modal, Space, Table } from 'antd';
import { useState } from 'react';
import { mount } from './providers';

const rows = Array.from({ length: 20 }, (_, i) => ({ key: i, code: `NO-${1000 + i}`, name: `记录 ${i + 1}`, amount: (i * 123.45).toFixed(2) }));

function ListPage() {
  const [modal, setModal] = useState(false);
  const [drawer, setDrawer] = useState(false);
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider>
        <Menu theme="dark" mode="inline" items={[{ key: 'list', icon: <TableOutlined />, label: '列表' }, { key: 'other', label: '其他' }]} />
      </Layout.Sider>
      <Layout>
        <Layout.Header style={{ color: '#fff' }}>后台</Layout.Header>
        <Layout.Content style={{ padding: 16 }}>
          <Form layout="inline" style={{ marginBottom: 16 }}>
            <Form.Item name="name" label="名称">
              <Input />
            </Form.Item>
            <Form.Item name="range" label="日期">
              <DatePicker.RangePicker />
            </Form.Item>
            <Space>
              <Button type="primary" icon={<SearchOutlined />}>查询</Button>
              <Button onClick={() => setModal(true)}>新增</Button>
              <Button onClick={() => setDrawer(true)}>详情</Button>
            </Space>
          </Form>
          <Table
            dataSource={rows}
            columns={[
              { title: '编号', dataIndex: 'code' },
              { title: '名称', dataIndex: 'name' },
              { title: '金额', dataIndex: 'amount', align: 'right' },
            ]}
            pagination={{ pageSize: 10, showSizeChanger: true, showQuickJumper: true }}
          />
          <Modal title="新增" open={modal} onCancel={() => setModal(false)} onOk={() => setModal(false)}>
            <Input />
          </Modal>
          <Drawer title="详情" open={drawer} onClose={() => setDrawer(false)}>
            内容
          </Drawer>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

mount(<ListPage />);
