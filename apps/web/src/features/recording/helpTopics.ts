/** Help topics of /config/recording (spec 2): recording plan, plan edit, save days (i18n keys). */
export const RECORDING_HELP = [
  { title: 'recording.help.plan.title', description: 'recording.help.plan.description', to: '/config/program' },
  { title: 'recording.help.edit.title', description: 'recording.help.edit.description', to: '/config/program/form' },
  { title: 'recording.help.saveDays.title', description: 'recording.help.saveDays.description' },
] as const;
