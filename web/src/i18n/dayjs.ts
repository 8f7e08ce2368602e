import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import i18n from './index';

/** dayjs follows the UI language (imported by the shell, where date pickers live). */
const sync = (lng: string) => {
  dayjs.locale(lng === 'en' ? 'en' : 'zh-cn');
};
sync(i18n.language);
i18n.on('languageChanged', sync);

export default dayjs;
