import { CheckOutlined } from '@ant-design/icons';
import { ColorPicker, Space } from 'antd';
import { THEME_COLOURS } from '@zhyy/shared';
import { useSettings } from '../stores/settings';

/** Theme colour: the offered swatches (#1890ff default, #409EFF) and any custom colour. */
export function ThemePicker() {
  const colour = useSettings((s) => s.themeColour);
  const setColour = useSettings((s) => s.setThemeColour);
  return (
    <Space wrap size={8} data-testid="theme-picker">
      {THEME_COLOURS.map((c) => (
        <button
          key={c}
          type="button"
          className="theme-swatch"
          style={{ background: c }}
          aria-label={`主题色 ${c}`}
          aria-pressed={colour.toLowerCase() === c.toLowerCase()}
          onClick={() => setColour(c)}
        >
          {colour.toLowerCase() === c.toLowerCase() ? <CheckOutlined /> : null}
        </button>
      ))}
      <ColorPicker value={colour} disabledAlpha onChangeComplete={(c) => setColour(c.toHexString())} aria-label="自定义主题色" />
    </Space>
  );
}
