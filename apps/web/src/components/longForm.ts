/**
 * What every long form (an editor of many fields: a contract, a project) shares (issue 31):
 * - Enter never submits it: a key press in a text box, a date or a picker stays in that field (a half-filled
 *   contract was saved from a date field at once); only 保存 saves. A text area keeps its new lines.
 * - A refusal of the server is a plain sentence placed on the field it names: the developer's prefix
 *   (参数错误：) is dropped, and a message naming a field's label (工期结束日期不能早于开始日期) shows under that
 *   field, which is scrolled into view; a message naming none stays at the top of the form.
 */
import type { FormInstance } from 'antd';
import type { KeyboardEvent } from 'react';

/** The form's onKeyDown: Enter in any control but a text area or a button does not submit the form. */
export function noEnterSubmit(e: KeyboardEvent<HTMLFormElement>): void {
  if (e.key !== 'Enter') return;
  const t = e.target as HTMLElement;
  if (t.tagName === 'TEXTAREA' || t.tagName === 'BUTTON') return;
  e.preventDefault();
}

/** The message as a user reads it: without the 参数错误： prefix the server puts before a field's sentence. */
export function plainMessage(message: string): string {
  return message.replace(/^参数错误[：:]\s*/, '').trim();
}

/**
 * The field a message is about: the field whose label the message names (the longest label found, so
 * 工期结束日期 wins over 结束日期). `labels` maps each field name to its label as the form shows it.
 */
export function fieldOfMessage(message: string, labels: Record<string, string>): string | null {
  let best: string | null = null;
  for (const [name, label] of Object.entries(labels)) {
    const bare = label.replace(/（.*?）/g, '');
    if (bare && message.includes(bare) && (!best || bare.length > labels[best]!.replace(/（.*?）/g, '').length)) best = name;
  }
  return best;
}

/**
 * Places a refusal: on its field when the message names one (answers true), else leaves it to the caller
 * to show at the top of the form (answers false). The message is the plain sentence either way.
 */
export function placeServerError<T>(form: FormInstance<T>, message: string, labels: Record<string, string>): boolean {
  const text = plainMessage(message);
  const field = fieldOfMessage(text, labels);
  if (!field) return false;
  form.setFields([{ name: field as never, errors: [text] }]);
  form.scrollToField(field as never, { block: 'center' });
  return true;
}
