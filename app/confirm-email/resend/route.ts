// POST /confirm-email/resend: "Send the link again" on /settings.
import { resendConfirmationRequest } from '@/lib/web/email-confirmation';

export const POST = (req: Request) => resendConfirmationRequest(req);
