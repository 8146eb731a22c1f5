/** The texts the account forms show. */
export const accountMessages = {
  loadFailed: 'Something wrong!',
  required: 'Please fill in this field!',
  email: 'Please enter a valid email!',
  mismatch: 'Password and confirm not match!',
  settingsSaved: 'Settings updated',
  settingsFailed: 'Something wrong try again!',
  personalInfoSaved: 'Personal info updated',
  currentPasswordHint: 'Needed to change your email or password',
  emailConfirmed: 'Your email is changed.',
} as const;
