/** Labels of notices (web/src/desk), the notice bell and the home page, zh and en. */
export const deskZh = {
  notice: '通知公告',
  unread: '未读',
  noNotices: '暂无通知',
  noRight: '没有查看通知的权限',
  allNotices: '查看全部通知',
  home: {
    today: '今天是 {{date}}',
    figures: '关键指标',
    todo: '我的待办',
    todoTab: '待办事务',
    claimTab: '待签事务',
    noTasks: '暂无待处理的事务',
    viewAll: '查看全部',
    notices: '最新通知',
    shortcuts: '常用功能',
    shortcutsHint: '按您打开的次数排列',
    shortcutsSuggested: '常用功能会随您的使用记录在这里',
    started: '{{name}} 发起',
  },
};

export const deskEn: typeof deskZh = {
  notice: 'Notice',
  unread: 'Unread',
  noNotices: 'No notices',
  noRight: 'You are not allowed to read notices',
  allNotices: 'All notices',
  home: {
    today: 'Today is {{date}}',
    figures: 'Key figures',
    todo: 'My tasks',
    todoTab: 'To do',
    claimTab: 'To claim',
    noTasks: 'Nothing waits for you',
    viewAll: 'View all',
    notices: 'Latest notices',
    shortcuts: 'Shortcuts',
    shortcutsHint: 'The screens you open most',
    shortcutsSuggested: 'Screens you use often will appear here',
    started: 'started by {{name}}',
  },
};
