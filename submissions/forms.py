from django import forms


class UploadForm(forms.Form):
    file = forms.FileField(required=False, help_text="A gameworld.submission/1 JSON file.")
    text = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
                           label="…or paste the JSON")

    def payload(self):
        """The uploaded bytes: the file if one was chosen, else the pasted text."""
        upload = self.cleaned_data.get("file")
        if upload:
            return upload.read()
        return self.cleaned_data.get("text", "").encode()

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("file") and not cleaned.get("text", "").strip():
            raise forms.ValidationError("Choose a submission file or paste its JSON.")
        return cleaned


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, help_text="What the token is for, e.g. “CI runner”.")
