/** Help topics of spec 2: title, description, optional jump target (i18n keys). */
export interface HelpTopic {
  title: string;
  description: string;
  to?: string;
}

export const HELP_TOPICS: HelpTopic[] = [
  { title: 'help.recording.title', description: 'help.recording.description', to: '/config/recording' },
  { title: 'help.version.title', description: 'help.version.description', to: '/version/index' },
  { title: 'help.base.title', description: 'help.base.description', to: '/config/base' },
  { title: 'help.user.title', description: 'help.user.description', to: '/user/index' },
  { title: 'help.device.title', description: 'help.device.description', to: '/config/device' },
];
