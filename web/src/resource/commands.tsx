import { useCallback } from 'react';
import { App as AntApp, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { localized } from '../i18n';
import { toast } from '../util/notify';
import { runCommand } from './api';
import type { Command, ResourceMeta, Row } from './types';

export type CommandPlace = 'row' | 'toolbar';

/** The commands drawn at a place whose permission the user holds (menu/buttons); one without a code is open. */
export function permittedCommands(meta: ResourceMeta, permission: Record<string, boolean>, place: CommandPlace): Command[] {
  return (meta.commands ?? []).filter((c) => c[place] && (!c.permission || permission[c.permission] === true));
}

/** Whether a row is in a state the command starts from (no `from`: any state). Values compare as text: 1 and "1" are one state. */
export function inFromState(command: Command, row: Row): boolean {
  if (!command.from) return true;
  const v = row[command.from.field];
  return command.from.values.some((s) => String(s) === String(v));
}

export const commandLabel = (c: Command): string => localized(c.label) || c.name;

/**
 * The width (px) a row button's label takes at the table's 14 px font: a Chinese character is as wide
 * as the font, a Latin letter about half of it ("Submit for approval" is not 19 Chinese characters wide).
 */
export const labelWidth = (label: string): number =>
  Math.ceil([...label].reduce((n, ch) => n + ((ch.codePointAt(0) ?? 0) >= 0x2e80 ? 14 : 7.5), 0));

/**
 * Runs a command over rows: asks its confirmation, posts the ids, toasts the server's msg and calls
 * done (reload). A refused command was already shown by the request layer; the dialog just closes.
 */
export function useCommandRunner(done: () => unknown): (command: Command, ids: string[]) => void {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  return useCallback(
    (command: Command, ids: string[]) => {
      if (ids.length === 0) {
        toast.warning(t('crud.selectOne'));
        return;
      }
      modal.confirm({
        title: t('navbar.tip'),
        content: localized(command.confirm) || t('crud.commandConfirm', { label: commandLabel(command) }),
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        onOk: async () => {
          try {
            const res = await runCommand(command, ids);
            toast.success(res.msg || t('crud.commandDone'));
          } catch {
            return; // shown by the request layer (spec §8)
          }
          await done();
        },
      });
    },
    [t, modal, done],
  );
}

/**
 * The toolbar buttons of commands: each acts on the selected rows. They are spaced like the toolbar's
 * other buttons (the toolbar's Space takes this component as one item, so it would set them edge to edge).
 */
export function CommandToolbar({ commands, selected, run }: { commands: Command[]; selected: Row[]; run: (command: Command, ids: string[]) => void }) {
  if (commands.length === 0) return null;
  return (
    <Space wrap>
      {commands.map((c) => (
        <Button key={c.key || c.name} onClick={() => run(c, selected.map((r) => String(r.id)))}>
          {commandLabel(c)}
        </Button>
      ))}
    </Space>
  );
}
