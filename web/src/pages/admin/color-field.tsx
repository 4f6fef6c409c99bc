// A colour as the API takes it (#RRGGBB): a colour picker and a text field kept in step. The
// text is checked before sending; checkColor gives the same kind of error the API would.
import { ApiError } from '../../api/client';
import { HEX_COLOR } from './admin-types';

export function checkColor(text: string, field = 'ui.colors.main'): void {
  if (!HEX_COLOR.test(text.trim())) throw new ApiError(400, 'BadRequest', `${field} must be a colour as #RRGGBB (got "${text}")`);
}

export function ColorField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const valid = HEX_COLOR.test(value.trim());
  return (
    <div className="field">
      <span>{label}</span>
      <div className="adm-color">
        {/* The picker only holds valid colours; while the text is not one it shows black. */}
        <input type="color" aria-label={`${label} picker`} value={valid ? value.trim().toLowerCase() : '#000000'} onChange={(e) => onChange(e.target.value)} />
        <input type="text" aria-label={label} aria-invalid={!valid} value={value} onChange={(e) => onChange(e.target.value)} placeholder="#RRGGBB" maxLength={16} spellCheck={false} />
      </div>
    </div>
  );
}

export function Swatch({ color }: { color: string }) {
  return <span className="adm-swatch" style={{ background: color }} aria-hidden="true" />;
}
