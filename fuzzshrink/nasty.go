package fuzzshrink

// nastyOneIn is how rarely a string of String or StringN is one of
// nastyStrings: one in nastyOneIn, on average.
const nastyOneIn = 32

// nastyStrings are texts that break code which assumes one byte a
// character, one character a glyph, left to right, ASCII case rules, or
// words that mean nothing to a parser: String draws them whole now and
// then, as a random walk over runes would almost never.
var nastyStrings = []string{
	// Letters outside the Basic Multilingual Plane: four bytes of UTF-8,
	// two UTF-16 units each.
	"𝕿𝖍𝖊 𝖖𝖚𝖎𝖈𝖐 𝖇𝖗𝖔𝖜𝖓 𝖋𝖔𝖝",
	"𝐓𝐡𝐞 𝐪𝐮𝐢𝐜𝐤 𝐛𝐫𝐨𝐰𝐧 𝐟𝐨𝐱",
	"𝒯𝒽𝑒 𝓆𝓊𝒾𝒸𝓀",
	"𝓣𝓱𝓮 𝓺𝓾𝓲𝓬𝓴",
	"𝚃𝚑𝚎 𝚚𝚞𝚒𝚌𝚔",
	// Emoji: a sequence joined by zero-width joiners, a flag, a skin tone,
	// a keycap.
	"👨‍👩‍👧‍👦",
	"🇯🇵🇫🇷",
	"👍🏽",
	"1️⃣",
	// Combining marks, stacked.
	"é",
	"Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
	// Right to left, and the marks that change direction.
	"שלום עולם",
	"مرحبا بالعالم",
	"\u202Eabc\u202C",
	"\u200F\u200E",
	// Width and case: fullwidth, ligatures, letters whose case changes
	// their length.
	"Ｔｈｅ ｑｕｉｃｋ",
	"ﬀﬁﬂ",
	"ß",
	"İı",
	"ǅ",
	"Ω",
	// Invisible: zero-width space, non-joiner, byte order mark, no-break
	// space, line and paragraph separators.
	"\u200B",
	"\u200C\u200D",
	"\uFEFF",
	"\u00A0",
	"\u2028\u2029",
	"\u0085",
	// Control characters and line ends.
	"\x00",
	"\r\n",
	"\t\v\f",
	"\x1b[31m",
	// Scripts of several bytes a character.
	"日本語",
	"한국어",
	"ภาษาไทย",
	"देवनागरी",
	// Words a parser may take for something else.
	"null",
	"nil",
	"NaN",
	"-Infinity",
	"true",
	"-1",
	"0x7fffffff",
	"1e309",
	"-0",
	"%s%n%x",
	"{{.}}",
	"${x}",
	"<script>",
	"'; --",
	"\\",
	"../..",
	"C:\\",
	"a\x00b",
}
